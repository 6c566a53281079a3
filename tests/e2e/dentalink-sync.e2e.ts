import { expect, test, type Page } from "@playwright/test";
import { dentalinkFakeOrigin } from "../../playwright.config";
import {
  blockingViolations,
  DEMO_PASSWORD,
  openLanding,
  openPage,
  signInByRequest,
  useOwnClientIp,
} from "./support";

// The Dentalink sync tab on /funnel (ADR 019), in live mode against the fake Dentalink API that playwright.config.ts
// starts (with some latency, so the processing view is really there while the server waits for the real calls).
// Mock mode (no key) is covered by tests/integration/dentalink-sync.test.ts and dentalink-mock-mode.test.ts.

const DEMO_ADVISOR = "asesor@clinica.example";

const REQUIRED = [
  "Nombre es requerido",
  "Apellido es requerido",
  "Email es requerido",
  "Teléfono es requerido",
  "Fecha de nacimiento es requerida",
  "Tipo de tratamiento es requerido",
  "Fecha de cita es requerida",
  "Hora de cita es requerida",
  "Dentista es requerido",
];

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

/** A future date (AAAA-MM-DD) far enough apart between runs that two tests never take the same slot. */
function futureDate(): string {
  const days = 20 + Math.floor(Math.random() * 300);
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function randomDigits(length: number): string {
  return Array.from({ length }, () => Math.floor(Math.random() * 10)).join("");
}

function syncForm(page: Page) {
  return page
    .locator("form")
    .filter({ has: page.getByRole("button", { name: "Sincronizar con Dentalink" }) });
}

async function fillAppointment(page: Page, time: string, dentist: string) {
  const form = syncForm(page);
  await form.getByLabel("Fecha de nacimiento").fill("1991-06-15");
  await form.getByLabel("Fecha de cita").fill(futureDate());
  await form.getByLabel("Hora de cita").selectOption(time);
  await form.getByLabel("Dentista").selectOption({ label: dentist });
}

test("an asesor syncs a patient: every required message, the processing view, the result, a fresh form", async ({
  page,
}) => {
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, "/funnel?tab=dentalink");
  const tab = page
    .getByRole("tablist", { name: "Secciones del dashboard" })
    .getByRole("tab", { name: "Dentalink" });
  await expect(tab).toHaveAttribute("aria-selected", "true");
  // Live mode: no "modo demostración" badge; the dentists come from the fake's /dentistas.
  await expect(page.getByTestId("dentalink-mode")).toHaveCount(0);
  const { ids, report } = await blockingViolations(page);
  expect(ids, `axe on the Dentalink tab:\n${report}`).toEqual([]);

  // An empty submit: every required message at once, under the overall one, and nothing sent.
  const form = syncForm(page);
  await form.getByRole("button", { name: "Sincronizar con Dentalink" }).click();
  await expect(page.getByText("Por favor complete todos los campos requeridos")).toBeVisible();
  await expect(page.getByTestId("sync-errors").getByRole("listitem")).toHaveText(REQUIRED);
  await expect(page.getByTestId("sync-processing")).toHaveCount(0);

  const suffix = randomDigits(6);
  await form.getByLabel("Nombre", { exact: true }).fill("Ignacia");
  await form.getByLabel("Apellido").fill(`Prueba ${suffix}`);
  await form.getByLabel("Email").fill(`ignacia-${suffix}@correo.example`);
  await form.getByLabel("Teléfono").fill(`+56 9 ${randomDigits(4)} ${randomDigits(4)}`);
  await form.getByLabel("Tipo de tratamiento").selectOption("limpieza");
  await fillAppointment(page, "09:30", "Fernanda Vidal (Ortodoncia)");
  await form.getByLabel("Notas (opcional)").fill("Prefiere mañanas.");
  await expect(page.getByTestId("sync-errors")).toHaveCount(0);
  await form.getByRole("button", { name: "Sincronizar con Dentalink" }).click();

  await expect(page.getByTestId("sync-processing")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Progreso de la sincronización" })).toBeVisible();

  const result = page.getByTestId("sync-result");
  await expect(result.getByRole("heading", { name: "Sincronización Exitosa" })).toBeVisible({
    timeout: 40_000,
  });
  await expect(page.getByTestId("sync-processing")).toHaveCount(0);
  await expect(result.getByTestId("sync-patient-id")).toHaveText(/^\d+$/);
  await expect(result.getByTestId("sync-appointment-id")).toHaveText(/^\d+$/);
  await expect(result).toContainText("Paciente y cita creados en Dentalink.");
  const view = result.getByRole("link", { name: /Ver en Dentalink/ });
  await expect(view).toHaveAttribute("href", `${dentalinkFakeOrigin}/`);
  await expect(view).toHaveAttribute("target", "_blank");
  await expect(view).toHaveAttribute("rel", /noopener/);
  const afterResult = await blockingViolations(page);
  expect(afterResult.ids, `axe on the sync result:\n${afterResult.report}`).toEqual([]);

  // 'Ver en Dentalink': DENTALINK_DASHBOARD_URL, here the fake's page of what was created in it.
  const [dashboard] = await Promise.all([page.context().waitForEvent("page"), view.click()]);
  await dashboard.waitForLoadState();
  await expect(dashboard.getByRole("heading", { level: 1 })).toContainText("Dentalink");
  await expect(dashboard.getByTestId("fake-patients")).toContainText(`Ignacia Prueba ${suffix}`);
  await dashboard.close();

  await result.getByRole("button", { name: "Nueva Sincronización" }).click();
  await expect(page.getByTestId("sync-result")).toHaveCount(0);
  const fresh = syncForm(page);
  await expect(fresh).toBeVisible();
  for (const label of [
    "Apellido",
    "Email",
    "Teléfono",
    "Fecha de nacimiento",
    "Fecha de cita",
    "Notas (opcional)",
  ]) {
    await expect(fresh.getByLabel(label)).toHaveValue("");
  }
  await expect(fresh.getByLabel("Nombre", { exact: true })).toHaveValue("");
  await expect(fresh.getByLabel("Tipo de tratamiento")).toHaveValue("");
  await expect(fresh.getByLabel("Dentista")).toHaveValue("");
  await expect(fresh.getByLabel("Hora de cita")).toHaveValue("");
});

test("a lead's 'Agendar' opens the tab prefilled, and the sync schedules the lead", async ({ page }) => {
  const suffix = randomDigits(6);
  const name = `Renata Lagos ${suffix}`;
  const phoneDigits = `9${randomDigits(8)}`;
  await openLanding(page);
  const landing = page.locator("#lead-capture");
  await landing.getByLabel("Nombre completo").fill(name);
  await landing.getByLabel("Teléfono").fill(`+56${phoneDigits}`);
  await landing.getByLabel("E-mail (opcional)").fill(`renata-${suffix}@correo.example`);
  await landing.getByLabel("Tratamiento de interés").selectOption({ label: "Ortodoncia" });
  await landing.getByLabel("¿Cuándo te gustaría comenzar?").selectOption({ label: "Dentro de 1 mes" });
  await landing.getByLabel("Presupuesto estimado").selectOption({ label: "$500.000 a $1.500.000" });
  await landing.getByRole("checkbox", { name: /Acepto que la clínica use estos datos/ }).check();
  await landing.getByRole("button", { name: "Quiero mi evaluación gratuita" }).click();
  await expect(page.getByTestId("lead-success")).toBeVisible();

  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, `/funnel?tab=leads&q=${suffix}`);
  const card = page.getByTestId("lead-card").filter({ hasText: name });
  await expect(card.getByTestId("lead-status")).toHaveText("Nuevo");
  await card.getByRole("link", { name: /Agendar/ }).click();
  await expect(page).toHaveURL(/\/funnel\?tab=dentalink&lead=/);
  await expect(page.getByTestId("sync-lead")).toContainText(name);

  const form = syncForm(page);
  await expect(form.getByLabel("Nombre", { exact: true })).toHaveValue("Renata");
  await expect(form.getByLabel("Apellido")).toHaveValue(`Lagos ${suffix}`);
  await expect(form.getByLabel("Email")).toHaveValue(`renata-${suffix}@correo.example`);
  await expect(form.getByLabel("Teléfono")).toHaveValue(/\+56 9/);
  await expect(form.getByLabel("Tipo de tratamiento")).toHaveValue("ortodoncia");
  await fillAppointment(page, "16:30", "Isidora Campos (Endodoncia)");
  await form.getByRole("button", { name: "Sincronizar con Dentalink" }).click();
  await expect(page.getByTestId("sync-processing")).toBeVisible();
  await expect(
    page.getByTestId("sync-result").getByRole("heading", { name: "Sincronización Exitosa" }),
  ).toBeVisible({ timeout: 40_000 });

  await openPage(page, `/funnel?tab=leads&q=${suffix}`);
  const scheduled = page.getByTestId("lead-card").filter({ hasText: name });
  await expect(scheduled.getByTestId("lead-status")).toHaveText("Agendado");
  await expect(scheduled).toContainText("Último contacto");
});
