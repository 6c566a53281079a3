import { MediaPictureFrom } from "~/components/media-picture";
import type { GuideMeta } from "~/content/guides";
import type { MediaConfig } from "~/lib/media";

// The cover's rendered width: w-40 below md, w-44 from md up (see the class below).
const guideSizes = "(min-width: 768px) 176px, 160px";

/**
 * A guide's cover as shown on its card (landing e-books and blog): the whole portrait cover, like a book on a shelf,
 * never cropped to the card's shape. Its width is fixed and its height follows from the image's own `width` and
 * `height`, so the box keeps the cover's proportions and its space is reserved before it loads. Badges go beside the
 * cover, never on it (issue 24, item 10).
 */
export function GuideCover({
  guide,
  media,
  priority = false,
}: {
  guide: GuideMeta;
  media: MediaConfig;
  priority?: boolean;
}) {
  return (
    <div className="flex justify-center bg-slate-100 px-6 py-6">
      <MediaPictureFrom
        media={media}
        file={guide.image}
        alt={guide.imageAlt}
        sizes={guideSizes}
        priority={priority}
        className="h-auto w-40 rounded-md object-contain shadow-lg ring-1 ring-slate-900/10 md:w-44"
      />
    </div>
  );
}
