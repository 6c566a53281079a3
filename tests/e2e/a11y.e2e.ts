import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { openPage, WCAG_TAGS } from "./support";

/** Serious and critical axe violations, as ids plus a readable report for the failure message. */
async function blockingViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const blocking = results.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  const report = blocking
    .map(
      (violation) =>
        `[${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n` +
        violation.nodes
          .slice(0, 10)
          .map(
            (node) =>
              `    ${node.target.join(" ")}\n      ${node.failureSummary?.replace(/\n/g, "\n      ")}`,
          )
          .join("\n"),
    )
    .join("\n\n");
  return { ids: blocking.map((violation) => violation.id), report };
}

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
