import { expect, test, type Page } from "@playwright/test";
import {
  blockingViolations,
  createLeads,
  leadNameMarker,
  DEMO_PASSWORD,
  openPage,
  signInByRequest,
  useOwnClientIp,
  waitForHydration,
} from "./support";

// ADR 027: an asesor searches the lead list without accents, filters, pages; the view lives in the URL
// (reload, back button, a shared link); the lead ages tick without a reload; axe finds nothing serious.
test.describe.configure({ mode: "serial" });

const DEMO_ADVISOR = "asesor@clinica.example";
const marker = leadNameMarker();

const cards = (page: Page) => page.getByTestId("lead-card");
const summary = (page: Page) => page.getByTestId("lead-summary");

test.beforeAll(async ({ request }) => {
  await createLeads(request, `Paz Núñez ${marker}`, 28);
  await createLeads(request, `Íñigo Pérez ${marker}`, 2, "asistente");
});

test("an asesor searches without accents, filters and pages; the URL keeps the view", async ({
  page,
  context,
  browser,
}) => {
  await useOwnClientIp(context);
  await page.clock.install();
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, "/funnel?tab=leads");

  // Accent-less, lower-case, two words: both must match.
  await page.getByLabel("Buscar por nombre, teléfono o e-mail").fill(`nunez ${marker.toLowerCase()}`);
  await page.getByRole("button", { name: "Filtrar" }).click();
  // Only what narrows the view is in the URL.
  await expect(page).toHaveURL(new RegExp(`/funnel\\?tab=leads&q=nunez\\+${marker.toLowerCase()}$`));
  await expect(summary(page)).toHaveText("Mostrando 1–25 de 28 leads");
  await expect(cards(page)).toHaveCount(25);
  for (const heading of await cards(page).getByRole("heading").allTextContents()) {
    expect(heading).toBe(`Paz Núñez ${marker}`);
  }
  await expect(cards(page).first()).toContainText("Creado hace menos de 1 min");

  // The ages follow the clock without a reload.
  await page.clock.fastForward("03:00");
  await expect(cards(page).first()).toContainText("Creado hace 3 min");

  // Next page, reload (the URL alone rebuilds the view), back button.
  await page.getByRole("link", { name: "Siguiente" }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(summary(page)).toHaveText("Mostrando 26–28 de 28 leads");
  await expect(cards(page)).toHaveCount(3);
  await page.reload();
  await waitForHydration(page);
  await expect(cards(page)).toHaveCount(3);
  await expect(page.getByLabel("Buscar por nombre, teléfono o e-mail")).toHaveValue(
    `nunez ${marker.toLowerCase()}`,
  );
  await page.goBack();
  await expect(page).not.toHaveURL(/[?&]page=2/);
  await expect(cards(page)).toHaveCount(25);

  // A filter on top of a search: the assistant's two leads.
  await page.getByLabel("Buscar por nombre, teléfono o e-mail").fill(marker.toUpperCase());
  await page.getByLabel("Origen").selectOption({ label: "Asistente virtual" });
  await page.getByLabel("Ordenar por").selectOption({ label: "Más antiguos" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/source=asistente/);
  await expect(page).toHaveURL(/sort=antiguos/);
  await expect(summary(page)).toHaveText("Mostrando 1–2 de 2 leads");
  await expect(cards(page).getByRole("heading")).toHaveText([
    `Íñigo Pérez ${marker}`,
    `Íñigo Pérez ${marker}`,
  ]);
  const exportLink = page.getByRole("link", { name: /Exportar CSV/ });
  await expect(exportLink).toHaveAttribute("href", /^\/funnel\/leads\.csv\?tab=leads&q=.*&source=asistente/);

  // The link is shareable: another signed-in tab opens the same view.
  const shared = page.url();
  const other = await context.newPage();
  await openPage(other, shared);
  await expect(summary(other)).toHaveText("Mostrando 1–2 de 2 leads");
  await expect(other.getByLabel("Origen")).toHaveValue("asistente");
  await other.close();

  // An invalid parameter is named, not a failure.
  await openPage(page, `${shared}&level=tibio`);
  await expect(page.getByRole("alert")).toContainText("«Nivel»");
  await expect(summary(page)).toHaveText("Mostrando 1–2 de 2 leads");

  // A patient is refused the export.
  const patientContext = await browser.newContext();
  const patientPage = await patientContext.newPage();
  await signInByRequest(patientPage, "paciente@clinica.example", DEMO_PASSWORD);
  const refused = await patientPage.request.get(`/funnel/leads.csv?q=${marker}`);
  expect(refused.status()).toBe(403);
  await patientContext.close();
});

test("the search form works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await useOwnClientIp(context);
  const signIn = await context.request.post("/auth", {
    form: { intent: "signin", email: DEMO_ADVISOR, password: DEMO_PASSWORD },
    maxRedirects: 0,
  });
  expect(signIn.status()).toBe(302);
  const page = await context.newPage();
  await page.goto("/funnel?tab=leads");
  await page.getByLabel("Buscar por nombre, teléfono o e-mail").fill(`PEREZ ${marker}`);
  await page.getByLabel("Origen").selectOption("asistente");
  await page.getByRole("button", { name: "Filtrar" }).click();
  // The browser sends every field; the defaults mean "todos".
  await expect(page).toHaveURL(/level=todos/);
  await expect(summary(page)).toHaveText("Mostrando 1–2 de 2 leads");
  await context.close();
});

test("the CSV export downloads the view with a dated name", async ({ page, context }) => {
  await useOwnClientIp(context);
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, `/funnel?tab=leads&q=${marker}&source=asistente`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Exportar CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
  const body = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(body).toString("utf8");
  expect(text.startsWith("\uFEFFNombre;Teléfono;")).toBe(true);
  expect(text.split("\r\n").filter((line) => line.includes(marker))).toHaveLength(2);
  expect(text).toContain(`Íñigo Pérez ${marker}`);
});

test("axe: the lead panel has no serious or critical violations", async ({ page, context }) => {
  await useOwnClientIp(context);
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, `/funnel?tab=leads&q=${marker}&page=2&level=tibio`);
  await expect(cards(page)).toHaveCount(5);
  const { ids, report } = await blockingViolations(page);
  expect(ids, `axe violations on the lead panel:\n${report}`).toEqual([]);
});
