import { expect, test } from "@playwright/test";
import { blockingViolations, DEMO_PASSWORD, openPage, signInByRequest, useOwnClientIp } from "./support";

// ADR 026: the Overview for a period and the Analytics tab (charts, tables, CSV, 'Configurar Analytics') as the
// demo asesor. Serial: the settings saved here are the asesor's, and the second test reads the overview's figures.
test.describe.configure({ mode: "serial" });

const DEMO_ADVISOR = "asesor@clinica.example";

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("overview: the cards follow the chosen period, with their change; axe finds nothing serious", async ({
  page,
}) => {
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, "/funnel");
  const total = page.getByTestId("stat-total");
  // The demo's leads span the last 90 days (issue 24, item 12b): the default 30 days hold dozens, compared with the
  // 30 days before.
  await expect(page.getByRole("link", { name: "Últimos 30 días" })).toHaveAttribute("aria-current", "true");
  await expect(total.locator("p.text-3xl")).toHaveText(/^[1-9]\d+/);
  await expect(page.getByTestId("change-total")).toContainText("vs. período anterior");
  await expect(page.getByTestId("system-scoring")).toContainText("85 / 55 / 25");
  await expect(page.getByTestId("system-outbox")).toBeVisible();

  const axe = await blockingViolations(page);
  expect(axe.ids, axe.report).toEqual([]);

  // A custom period from a year with no leads: every count drops to zero.
  const custom = page.getByRole("form", { name: "Período personalizado" });
  await custom.getByLabel("Desde").fill("2020-01-01");
  await custom.getByLabel("Hasta").fill("2020-01-31");
  await custom.getByRole("button", { name: "Aplicar período" }).click();
  await expect(page).toHaveURL(/period=custom&from=2020-01-01&to=2020-01-31/);
  await expect(total.locator("p.text-3xl")).toHaveText("0");
  await expect(page.getByTestId("stat-response").locator("p.text-3xl")).toHaveText("—");
  await expect(page.getByTestId("period-label")).toContainText("31 días");

  await page.getByRole("link", { name: "Últimos 7 días" }).click();
  await expect(page).toHaveURL(/period=7/);
  await expect(total.locator("p.text-3xl")).not.toHaveText("0");
});

test("analytics: SVG charts and tables for a period, CSV, and a chart hidden through 'Configurar Analytics'", async ({
  page,
}) => {
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, "/funnel?tab=analytics&period=7");
  await expect(page.getByRole("tab", { name: "Analytics" })).toHaveAttribute("aria-selected", "true");

  const level = page.getByTestId("chart-by-level");
  await expect(level.getByRole("img", { name: /Leads por día según nivel/ })).toBeVisible();
  await expect(level.locator("svg rect").first()).toBeAttached();
  const table = page.getByTestId("chart-table-by-level");
  await expect(table.locator("caption")).toContainText("Leads por día según nivel");
  await expect(table.locator("tbody tr")).toHaveCount(7);
  await expect(page.getByRole("img")).toHaveCount(7);

  // The CSV download of a chart for this period.
  const csvLink = page.getByTestId("chart-funnel").getByRole("link", { name: /Descargar CSV/ });
  const href = await csvLink.getAttribute("href");
  expect(href).toBe("/funnel/analytics.csv?chart=funnel&period=7");
  const csv = await page.request.get(href!);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  const body = await csv.body();
  expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(body.toString("utf8")).toContain("\r\nCalificación;");

  const axe = await blockingViolations(page);
  expect(axe.ids, axe.report).toEqual([]);

  // Hide the score chart, save, reload: it stays hidden.
  await page.getByRole("link", { name: "Configurar Analytics" }).click();
  const dialog = page.getByRole("dialog", { name: "Configurar Analytics" });
  await expect(dialog).toBeVisible();
  const dialogAxe = await blockingViolations(page, '[role="dialog"]');
  expect(dialogAxe.ids, dialogAxe.report).toEqual([]);
  await dialog.getByRole("checkbox", { name: "Distribución del puntaje" }).uncheck();
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status")).toHaveText("Ajustes de Analytics guardados.");
  await expect(page.getByTestId("chart-score")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("chart-by-level")).toBeVisible();
  await expect(page.getByTestId("chart-score")).toHaveCount(0);
  await expect(page.getByText("Gráficos ocultos: Distribución del puntaje.")).toBeVisible();

  // 'Restablecer' shows every chart again.
  await page.getByRole("link", { name: "Configurar Analytics" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Restablecer" }).click();
  await expect(page.getByTestId("chart-score")).toBeVisible();
});

test("'Configurar Analytics' without JavaScript: the settings page saves with a plain form post", async ({
  page,
  browser,
}) => {
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  const noJs = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  await useOwnClientIp(noJs);
  const plain = await noJs.newPage();
  await plain.goto("/funnel?tab=analytics");
  await plain.getByRole("link", { name: "Configurar Analytics" }).click();
  await expect(plain).toHaveURL(/\/funnel\/analytics\/ajustes$/);
  await plain.getByRole("checkbox", { name: "Distribución del tiempo de respuesta" }).uncheck();
  await plain.getByLabel("Período predeterminado").selectOption("90");
  await plain.getByRole("button", { name: "Guardar" }).click();
  await expect(plain).toHaveURL(/\/funnel\?tab=analytics$/);
  await expect(plain.getByTestId("chart-response-time")).toHaveCount(0);
  await expect(plain.getByTestId("chart-by-source")).toBeVisible();
  await expect(plain.getByRole("link", { name: "Últimos 90 días" })).toHaveAttribute("aria-current", "true");

  await plain.goto("/funnel/analytics/ajustes");
  await plain.getByRole("button", { name: "Restablecer" }).click();
  await expect(plain.getByTestId("chart-response-time")).toBeVisible();
  await noJs.close();
});
