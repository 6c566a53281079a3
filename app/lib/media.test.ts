import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { articles } from "~/content/articles";
import { guides } from "~/content/guides";
import { mediaUrl, pictureSources, renditions, responsiveImages } from "./media";

const config = { baseUrl: "/media/", accountId: "clinica-demo" };

it("joins base, file and account_id", () => {
  expect(mediaUrl({ baseUrl: "/media/", accountId: "clinica-demo" }, "hero.mp4")).toBe(
    "/media/hero.mp4?account_id=clinica-demo",
  );
  expect(mediaUrl({ baseUrl: "https://cdn.example/a", accountId: "x y" }, "ñ.webp")).toBe(
    "https://cdn.example/a/%C3%B1.webp?account_id=x%20y",
  );
});

describe("pictureSources", () => {
  it("offers AVIF then WebP at every width, the source file being the widest WebP", () => {
    const picture = pictureSources(config, "articulo-1.webp");
    expect(picture.sources).toEqual([
      {
        type: "image/avif",
        srcSet: [
          "/media/articulo-1-320.avif?account_id=clinica-demo 320w",
          "/media/articulo-1-480.avif?account_id=clinica-demo 480w",
          "/media/articulo-1-640.avif?account_id=clinica-demo 640w",
          "/media/articulo-1-800.avif?account_id=clinica-demo 800w",
        ].join(", "),
      },
      {
        type: "image/webp",
        srcSet: [
          "/media/articulo-1-320.webp?account_id=clinica-demo 320w",
          "/media/articulo-1-480.webp?account_id=clinica-demo 480w",
          "/media/articulo-1-640.webp?account_id=clinica-demo 640w",
          "/media/articulo-1.webp?account_id=clinica-demo 800w",
        ].join(", "),
      },
    ]);
    expect(picture).toMatchObject({
      src: "/media/articulo-1.webp?account_id=clinica-demo",
      width: 800,
      height: 450,
    });
  });

  it("keeps the platform URL and account on every candidate", () => {
    const picture = pictureSources(
      { baseUrl: "https://cdn.example/a", accountId: "x y" },
      "hero-poster.webp",
    );
    const candidates = picture.sources.flatMap((source) => source.srcSet.split(", "));
    expect(candidates).toHaveLength(8);
    for (const candidate of candidates)
      expect(candidate).toMatch(/^https:\/\/cdn\.example\/a\/hero-poster.*\?account_id=x%20y \d+w$/);
  });

  it("answers the same frozen parts for the same config and file, and apart for another config", () => {
    const first = pictureSources(config, "articulo-2.webp");
    expect(pictureSources({ ...config }, "articulo-2.webp")).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.sources)).toBe(true);
    expect(first.sources.every((source) => Object.isFrozen(source))).toBe(true);
    const other = pictureSources({ ...config, accountId: "otra" }, "articulo-2.webp");
    expect(other).not.toBe(first);
    expect(other.src).toBe("/media/articulo-2.webp?account_id=otra");
    expect(pictureSources(config, "articulo-3.webp").src).toBe(
      "/media/articulo-3.webp?account_id=clinica-demo",
    );
  });

  it("still shows a file that has no renditions, as a plain source", () => {
    expect(pictureSources(config, "nueva.webp")).toEqual({
      sources: [],
      src: "/media/nueva.webp?account_id=clinica-demo",
    });
  });
});

describe("responsiveImages", () => {
  it("covers every article and guide image", () => {
    for (const { image } of [...articles, ...guides]) expect(responsiveImages).toHaveProperty([image]);
  });

  it("lists widths ascending and narrower than the source, and every rendition is in public/media", () => {
    for (const [file, image] of Object.entries(responsiveImages)) {
      expect(image.widths.toSorted((a, b) => a - b)).toEqual(image.widths);
      expect(Math.max(...image.widths)).toBeLessThan(image.width);
      const missing = renditions(file, image).filter(
        (rendition) => !existsSync(`public/media/${rendition.file}`),
      );
      expect(missing).toEqual([]);
    }
  });
});
