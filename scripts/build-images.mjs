// npm run images — renders the AVIF and WebP renditions listed in app/lib/media.ts (`responsiveImages`) from the
// source files in public/media/. The renditions are committed (ADR 014); run this after adding or changing a source.
// `--check` renders nothing and fails when a rendition is missing.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { renditions, responsiveImages } from "../app/lib/media.ts";

const dir = path.join(import.meta.dirname, "..", "public", "media");
const check = process.argv.includes("--check");
// Quality chosen by eye on these flat illustrations: lower values band the gradients of the hero.
const encoders = {
  avif: (image) => image.avif({ quality: 55, effort: 9 }),
  webp: (image) => image.webp({ quality: 78, effort: 6, smartSubsample: true }),
};

let missing = 0;
let written = 0;
let bytes = 0;
for (const [file, image] of Object.entries(responsiveImages)) {
  const source = path.join(dir, file);
  const metadata = await sharp(source).metadata();
  if (metadata.width !== image.width || metadata.height !== image.height) {
    throw new Error(
      `${file} is ${metadata.width}x${metadata.height}, media.ts says ${image.width}x${image.height}`,
    );
  }
  for (const rendition of renditions(file, image)) {
    if (!rendition.generated) continue;
    const target = path.join(dir, rendition.file);
    if (check) {
      if (!existsSync(target)) {
        console.error(`missing ${rendition.file}`);
        missing += 1;
      }
      continue;
    }
    const resized = sharp(source).resize({ width: rendition.width, withoutEnlargement: true });
    await encoders[rendition.format](resized).toFile(target);
    written += 1;
    bytes += statSync(target).size;
  }
}
if (check && missing > 0) process.exit(1);
if (!check) console.log(`${written} renditions, ${Math.round(bytes / 1024)} KiB in public/media`);
