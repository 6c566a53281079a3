import { preload } from "react-dom";
import { useAppData } from "~/lib/app-data";
import { pictureSources, type MediaConfig } from "~/lib/media";

interface MediaPictureProps {
  /** Source file under media (see `responsiveImages`). */
  file: string;
  alt: string;
  /** Rendered width per breakpoint, so the browser picks the smallest rendition that stays sharp. */
  sizes: string;
  className?: string;
  /** The page's largest paint: fetched first, never lazily. Only one image per page. */
  priority?: boolean;
  ref?: React.Ref<HTMLImageElement>;
}

/**
 * A media image as AVIF/WebP renditions with explicit dimensions. `<picture>` is `display: contents`, so the `<img>`
 * keeps its place in flex and grid layouts and `className` styles it as before.
 */
export function MediaPicture(props: MediaPictureProps) {
  const { media } = useAppData();
  return <MediaPictureFrom media={media} {...props} />;
}

/** The same picture from the media settings given (a prepared part renders from its props alone, ADR 055). */
export function MediaPictureFrom({
  media,
  file,
  alt,
  sizes,
  className,
  priority = false,
  ref,
}: MediaPictureProps & { media: MediaConfig }) {
  const { sources, src, width, height } = pictureSources(media, file);
  // React preloads a plain high-priority <img> but not one inside <picture>: announce the AVIF in the head so it is
  // fetched with the stylesheet, not after the scripts. `type` makes browsers without AVIF skip it.
  const best = sources[0];
  if (priority && best) {
    preload(src, {
      as: "image",
      type: best.type,
      imageSrcSet: best.srcSet,
      imageSizes: sizes,
      fetchPriority: "high",
    });
  }
  return (
    <picture className="contents">
      {sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        ref={ref}
        src={src}
        alt={alt}
        width={width}
        height={height}
        className={className}
        {...(priority
          ? { fetchPriority: "high" as const }
          : { loading: "lazy" as const, decoding: "async" as const })}
      />
    </picture>
  );
}
