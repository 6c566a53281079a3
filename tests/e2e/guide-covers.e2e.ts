import { expect, test, type Locator } from "@playwright/test";
import { guides } from "~/content/guides";
import { openPage } from "./support";

// Issue 24, item 10: the guides' covers are portrait art. They used to be cropped into landscape frames, with the
// 'GRATIS' and page-count badges on top of the cover's own title. Each cover must show whole (its box has the
// image's proportions, inside its card) and nothing may sit on it.

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The cover's box once its image has loaded, after checking that the whole image is shown in it. */
async function wholeCover(card: Locator): Promise<Box> {
  const image = card.getByRole("img");
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0))
    .toBe(true);
  const shown = await image.evaluate((element: HTMLImageElement) => {
    const box = element.getBoundingClientRect();
    return {
      boxRatio: box.width / box.height,
      naturalRatio: element.naturalWidth / element.naturalHeight,
      objectFit: getComputedStyle(element).objectFit,
    };
  });
  // Portrait art in a box of the same proportions: nothing is cut off, whatever object-fit says.
  expect(shown.naturalRatio).toBeLessThan(1);
  expect(Math.abs(shown.boxRatio / shown.naturalRatio - 1)).toBeLessThan(0.02);
  expect(shown.objectFit).not.toBe("cover");

  const box = (await image.boundingBox())!;
  const cardBox = (await card.boundingBox())!;
  expect(box.width).toBeGreaterThan(120);
  // Inside its card, which clips whatever overflows its rounded corners.
  expect(box.x).toBeGreaterThanOrEqual(cardBox.x);
  expect(box.y).toBeGreaterThanOrEqual(cardBox.y);
  expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
  expect(box.y + box.height).toBeLessThanOrEqual(cardBox.y + cardBox.height);
  return box;
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test.describe(`guide covers at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("on /blog each cover shows whole, and the badges sit beside it, not on it", async ({ page }) => {
      await openPage(page, "/blog");
      const cards = page.getByRole("region", { name: "E-books y Guías Gratuitas" }).getByRole("listitem");
      await expect(cards).toHaveCount(guides.length);
      for (const [index, guide] of guides.entries()) {
        const card = cards.nth(index);
        const cover = await wholeCover(card);
        for (const badge of [
          card.getByText("GRATIS", { exact: true }),
          card.getByText(`${guide.pages} páginas`, { exact: true }),
        ]) {
          await expect(badge).toBeVisible();
          const badgeBox = (await badge.boundingBox())!;
          expect(overlap(cover, badgeBox), `a badge of ${guide.slug} covers the cover`).toBe(false);
        }
      }
    });

    test("on the landing each cover shows whole, with its page count beside it", async ({ page }) => {
      await openPage(page, "/");
      const cards = page.getByRole("region", { name: "E-books y guías gratuitas" }).getByRole("listitem");
      await expect(cards).toHaveCount(guides.length);
      for (const [index, guide] of guides.entries()) {
        const card = cards.nth(index);
        const cover = await wholeCover(card);
        const pages = card.getByText(`${guide.pages} páginas`);
        await expect(pages).toBeVisible();
        expect(overlap(cover, (await pages.boundingBox())!)).toBe(false);
      }
    });
  });
}
