import { expect, test } from "@playwright/test";

test("the landing page renders its hero", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Odontología y estética facial");
});
