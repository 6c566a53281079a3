import { MediaPicture } from "~/components/media-picture";
import type { GuideMeta } from "~/content/guides";

// Three columns from md up inside the 6xl container, one full-width column below.
const guideSizes =
  "(min-width: 1152px) 357px, (min-width: 768px) calc((100vw - 5rem) / 3), calc(100vw - 2rem)";

/** A guide's cover as shown on its card (landing e-books and blog). */
export function GuideCover({ guide, priority = false }: { guide: GuideMeta; priority?: boolean }) {
  return (
    <MediaPicture
      file={guide.image}
      alt={guide.imageAlt}
      sizes={guideSizes}
      priority={priority}
      className="aspect-[4/3] w-full bg-slate-100 object-cover"
    />
  );
}
