/** Media come from the clinic's media platform: a configurable URL carrying the account_id query it requires. */
export interface MediaConfig {
  baseUrl: string;
  accountId: string;
}

export function mediaUrl(config: MediaConfig, file: string): string {
  const base = config.baseUrl.replace(/\/+$/, "");
  return `${base}/${encodeURIComponent(file)}?account_id=${encodeURIComponent(config.accountId)}`;
}

export interface ResponsiveImage {
  /** Intrinsic size of the source file, so every rendition keeps the same aspect ratio. */
  width: number;
  height: number;
  /** Widths rendered by `scripts/build-images.mjs` as `<name>-<width>.avif` and `.webp`, ascending. */
  widths: readonly number[];
}

// Plain data that `scripts/build-images.mjs` imports too (Node strips the types): the files on disk and the
// `srcset` written here cannot drift apart. The media platform must host the same renditions beside each source.
const cardWidths = [320, 480, 640] as const;
const articleImage = { width: 800, height: 450, widths: cardWidths } as const;
const guideImage = { width: 600, height: 800, widths: [320, 480] } as const;

export const responsiveImages = {
  "hero-poster.webp": { width: 1280, height: 720, widths: [480, 640, 960] },
  "articulo-1.webp": articleImage,
  "articulo-2.webp": articleImage,
  "articulo-3.webp": articleImage,
  "articulo-4.webp": articleImage,
  "articulo-5.webp": articleImage,
  "guia-implantes.webp": guideImage,
  "guia-estetica-facial.webp": guideImage,
  "guia-carillas.webp": guideImage,
} as const satisfies Record<string, ResponsiveImage>;

export type ImageFormat = "avif" | "webp";

export interface Rendition {
  file: string;
  width: number;
  format: ImageFormat;
}

/**
 * Every rendition of a source file, narrowest first: AVIF and WebP at each width, plus AVIF at the source's own width.
 * The source itself is the widest WebP, so it is listed but never regenerated (`generated: false`).
 */
export function renditions(file: string, image: ResponsiveImage): (Rendition & { generated: boolean })[] {
  const stem = file.replace(/\.[^.]+$/, "");
  const generated = (width: number, format: ImageFormat) => ({
    file: `${stem}-${width}.${format}`,
    width,
    format,
    generated: true,
  });
  return [
    ...image.widths.flatMap((width) => [generated(width, "avif"), generated(width, "webp")]),
    generated(image.width, "avif"),
    { file, width: image.width, format: "webp", generated: false },
  ];
}

export interface PictureSources {
  /** One `<source>` per modern format, best first; empty for a file without renditions. */
  sources: { type: `image/${ImageFormat}`; srcSet: string }[];
  /** The source file, for browsers that ignore `<source>`. */
  src: string;
  width?: number;
  height?: number;
}

const formats: readonly ImageFormat[] = ["avif", "webp"];

/** Answers already built, by config and file: both come from the code and the env, so the set stays small. */
const pictureCache = new Map<string, PictureSources>();
const PICTURE_CACHE_MAX = 200;

/**
 * The `<picture>` parts for a file under media; a file missing from `responsiveImages` still shows, unsized. Built
 * once per config and file (every rendered page asked again: issue 25's SSR profile) and frozen, since each caller
 * shares the same answer.
 */
export function pictureSources(config: MediaConfig, file: string): PictureSources {
  const key = `${config.baseUrl}\n${config.accountId}\n${file}`;
  const known = pictureCache.get(key);
  if (known) return known;
  const built = freezePicture(buildPictureSources(config, file));
  if (pictureCache.size < PICTURE_CACHE_MAX) pictureCache.set(key, built);
  return built;
}

function freezePicture(picture: PictureSources): PictureSources {
  for (const source of picture.sources) Object.freeze(source);
  Object.freeze(picture.sources);
  return Object.freeze(picture);
}

function buildPictureSources(config: MediaConfig, file: string): PictureSources {
  const src = mediaUrl(config, file);
  const image: ResponsiveImage | undefined = (responsiveImages as Record<string, ResponsiveImage>)[file];
  if (!image) return { sources: [], src };
  const all = renditions(file, image);
  return {
    sources: formats.map((format) => ({
      type: `image/${format}` as const,
      srcSet: all
        .filter((rendition) => rendition.format === format)
        .map((rendition) => `${mediaUrl(config, rendition.file)} ${rendition.width}w`)
        .join(", "),
    })),
    src,
    width: image.width,
    height: image.height,
  };
}
