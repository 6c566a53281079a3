import { expect, test } from "@playwright/test";
import {
  blockingViolations,
  createLeads,
  leadNameMarker,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  openLanding,
  openPage,
  signInByRequest,
} from "./support";

// ADR 025: an asesor opens a lead from the panel, adds a note, walks it through the pipeline to converted
// and sees each step in the history; the lead page passes axe.

const DEMO_ADVISOR = "asesor@clinica.example";

function randomDigits(length: number) {
  return Array.from({ length }, () => Math.floor(Math.random() * 10)).join("");
}

test("an asesor opens a lead, adds a note and moves it new → contacted → qualified → scheduled → converted", async ({
  page,
}) => {
  const suffix = randomDigits(6);
  const name = `Matías Fuentes ${suffix}`;
  await openLanding(page);
  const landing = page.locator("#lead-capture");
  await landing.getByLabel("Nombre completo").fill(name);
  await landing.getByLabel("Teléfono").fill(`+569${randomDigits(8)}`);
  await landing.getByLabel("E-mail (opcional)").fill(`matias-${suffix}@correo.example`);
  await landing.getByLabel("Tratamiento de interés").selectOption({ label: "Implantes dentales" });
  await landing.getByLabel("¿Cuándo te gustaría comenzar?").selectOption({ label: "Lo antes posible" });
  await landing.getByLabel("Presupuesto estimado").selectOption({ label: "Más de $1.500.000" });
  await landing.getByRole("checkbox", { name: /Acepto que la clínica use estos datos/ }).check();
  await landing.getByRole("button", { name: "Quiero mi evaluación gratuita" }).click();
  await expect(page.getByTestId("lead-success")).toBeVisible();

  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  // The asesor finds the lead the way staff do: an accent-less search, narrowed by a filter.
  await openPage(page, "/funnel?tab=leads");
  await page.getByLabel("Buscar por nombre, teléfono o e-mail").fill(`matias fuentes ${suffix}`);
  await page.getByLabel("Estado").selectOption({ label: "Nuevo" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/[?&]status=new/);
  const card = page.getByTestId("lead-card").filter({ hasText: name });
  await expect(page.getByTestId("lead-card")).toHaveCount(1);
  await card.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/funnel\/leads\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("lead-status")).toHaveText("Nuevo");
  // Only the assignee (or an admin) changes a lead (ADR 034): the demo has one asesor, who gets every new lead.
  await expect(page.getByTestId("lead-assignee")).toHaveText("Javiera Pizarro");
  const history = page.getByTestId("lead-history");
  await expect(history).toContainText("Lead creado (Web)");
  await expect(page.getByRole("link", { name: /WhatsApp/ })).toHaveAttribute(
    "href",
    /^https:\/\/wa\.me\/569\d{8}\?text=Hola%20Mat%C3%ADas/,
  );

  const note = "<b>Llamar</b> después de las 18:00";
  await page.getByLabel("Nueva nota").fill(note);
  await page.getByRole("button", { name: "Agregar nota" }).click();
  await expect(page.getByRole("region", { name: "Notas" }).getByRole("status")).toHaveText("Nota agregada.");
  await expect(history.locator('[data-kind="note"]').first()).toContainText(note);
  await expect(page.getByLabel("Nueva nota")).toHaveValue("");

  const stage = page.getByRole("region", { name: "Etapa del lead" });
  // From 'Nuevo' the contact is the card action 'Marcar contactado', in the Contacto section.
  await expect(stage.getByRole("button", { name: "Marcar contactado" })).toHaveCount(0);
  await page
    .getByRole("region", { name: "Contacto" })
    .getByRole("button", { name: "Marcar contactado" })
    .click();
  await expect(page.getByTestId("lead-status")).toHaveText("Contactado");
  await expect(history.locator('[data-kind="status"]').first()).toContainText("Estado: Nuevo → Contactado");
  const steps: Array<[string, string, string]> = [
    ["Marcar calificado", "Contactado", "Calificado"],
    ["Marcar agendado", "Calificado", "Agendado"],
    ["Marcar convertido", "Agendado", "Convertido"],
  ];
  for (const [button, from, to] of steps) {
    await stage.getByRole("button", { name: button, exact: true }).click();
    await expect(page.getByTestId("lead-status")).toHaveText(to);
    await expect(history.locator('[data-kind="status"]').first()).toContainText(`Estado: ${from} → ${to}`);
  }
  await expect(stage).toContainText("Un lead convertido ya no cambia de estado.");
  await expect(stage.getByRole("button")).toHaveCount(0);
  // Newest first: the four moves, then the note, then the arrival.
  const titles = await history.locator("li > div > p:first-child").allTextContents();
  const statusTitles = titles.filter((title) => title.startsWith("Estado:"));
  expect(statusTitles).toEqual([
    "Estado: Agendado → Convertido",
    "Estado: Calificado → Agendado",
    "Estado: Contactado → Calificado",
    "Estado: Nuevo → Contactado",
  ]);
  expect(titles.indexOf("Nota")).toBeGreaterThan(titles.indexOf("Estado: Nuevo → Contactado"));
  expect(titles.at(-1)).toBe("Lead creado (Web)");
  // The note is text on the page, not markup.
  await expect(history.locator("b")).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId("lead-status")).toHaveText("Convertido");
  await expect(page.getByText("Primer contacto")).toBeVisible();
});

test("'Nota agregada.' on one lead does not show on the next lead opened without a reload", async ({
  page,
  request,
}) => {
  // Two leads of its own: the first test's lead (and other files') may be the newest in the list meanwhile, and a
  // note written there would land in that test's history.
  const marker = leadNameMarker();
  await createLeads(request, `Rocío Díaz ${marker}`, 2);
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, `/funnel?tab=leads&q=${marker.toLowerCase()}`);
  await expect(page.getByTestId("lead-card")).toHaveCount(2);
  const links = page.getByTestId("lead-card").getByRole("heading").getByRole("link");
  const second = await links.nth(1).getAttribute("href");
  expect(second).toMatch(/^\/funnel\/leads\//);
  await links.first().click();
  await expect(page).toHaveURL(/\/funnel\/leads\//);
  const notes = page.getByRole("region", { name: "Notas" });
  await page.getByLabel("Nueva nota").fill("Prefiere que la llamen en la mañana");
  await notes.getByRole("button", { name: "Agregar nota" }).click();
  await expect(notes.getByRole("status")).toHaveText("Nota agregada.");
  await page.getByLabel("Nueva nota").fill("Texto a medio escribir");
  // Straight to another lead in the same page (as back/forward between two leads does): no reload, no unmount.
  await page.evaluate((path) => {
    const router = (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } })
      .__reactRouterDataRouter;
    return router.navigate(path);
  }, second!);
  await expect(page).toHaveURL(new RegExp(`${second}$`));
  await expect(notes.getByRole("status")).toHaveText("");
  await expect(page.getByLabel("Nueva nota")).toHaveValue("");
});

for (const [who, email] of [
  ["asesor", DEMO_ADVISOR],
  ["admin", DEMO_ADMIN],
] as const) {
  test(`axe: the lead page as ${who} has no serious or critical WCAG 2.1 AA violations`, async ({ page }) => {
    await signInByRequest(page, email, DEMO_PASSWORD);
    await openPage(page, "/funnel?tab=leads");
    const first = page.getByTestId("lead-card").first().getByRole("heading").getByRole("link");
    await first.click();
    await expect(page).toHaveURL(/\/funnel\/leads\//);
    await expect(page.getByRole("region", { name: "Historial" })).toBeVisible();
    if (who === "admin") await expect(page.getByLabel("Reasignar a")).toBeVisible();
    const { ids, report } = await blockingViolations(page);
    expect(ids, `axe violations on the lead page (${who}):\n${report}`).toEqual([]);
  });
}
