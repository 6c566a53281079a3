import { expect, test } from "@playwright/test";
import { blockingViolations, openPage } from "./support";

for (const path of ["/", "/blog", "/politica-privacidad"]) {
  test(`axe: no serious or critical WCAG 2.1 AA violations on ${path}`, async ({ page }) => {
    await openPage(page, path);
    const { ids, report } = await blockingViolations(page);
    expect(ids, `axe violations on ${path}:\n${report}`).toEqual([]);
  });
}

test("axe: the open helper panel (chat and wizard) has no serious or critical violations", async ({
  page,
}) => {
  await openPage(page, "/");
  await page.getByRole("button", { name: "Abrir chat con Rio, asistente IA" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const found: string[] = [];
  const reports: string[] = [];
  for (const mode of ["Chat IA", "Asistente"]) {
    await dialog
      .getByRole("group", { name: "Modo del asistente" })
      .getByRole("button", { name: mode })
      .click();
    await expect(dialog.getByRole("button", { name: mode })).toHaveAttribute("aria-pressed", "true");
    const { ids, report } = await blockingViolations(page, '[role="dialog"]');
    found.push(...ids.map((id) => `${mode}: ${id}`));
    if (report) reports.push(`(${mode}) ${report}`);
  }
  expect(found, `axe violations in the helper panel:\n${reports.join("\n\n")}`).toEqual([]);
});
