import { expect, test, type Page } from "@playwright/test";
import { dentalinkFakeOrigin } from "../../playwright.config";
import {
  blockingViolations,
  createAccount,
  DEMO_PASSWORD,
  newAccount,
  newestMail,
  openPage,
  signInByRequest,
  useOwnClientIp,
} from "./support";

// A Mis Citas booking written through to Dentalink while Dentalink fails (ADR 023): the e2e server runs live
// against the fake Dentalink (playwright.config.ts). The patient's booking never waits for Dentalink; the outbox
// retries; staff see the booking waiting on /funnel?tab=dentalink with its reason; once the fake recovers, the
// staff's 'Reintentar ahora' sends it, and the appointment is at Dentalink in the linked dentist's agenda.

const DEMO_ADVISOR = "asesor@clinica.example";

interface FakeState {
  patients: Array<{ id: number; email?: string; nombre: string; apellidos: string }>;
  appointments: Array<{
    id: number;
    id_paciente: number;
    id_dentista: string;
    fecha: string;
    hora_inicio: string;
  }>;
}

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

async function fake(page: Page, path: string, body: Record<string, unknown>) {
  const response = await page.request.post(`${dentalinkFakeOrigin}${path}`, { data: body });
  expect(response.ok(), `${path} on the fake Dentalink`).toBe(true);
}

async function fakeState(page: Page): Promise<FakeState> {
  return (await (await page.request.get(`${dentalinkFakeOrigin}/__fake/state`)).json()) as FakeState;
}

test("a booking made while Dentalink fails is retried, shown to staff, and sent once Dentalink recovers", async ({
  page,
  browser,
}) => {
  const suffix = String(Date.now()).slice(-6);
  const account = { ...newAccount("dentalink"), firstName: "Dentalina", lastName: `Reintento ${suffix}` };
  const patientName = `${account.firstName} ${account.lastName}`;
  // Dentalink fails for this patient only (the client looks the patient up by e-mail first): other tests share it.
  await fake(page, "/__fake/fail", { times: 1000, status: 503, path: account.email });

  // The patient confirms the e-mail and books in Mis Citas: saved at once, Dentalink or not.
  await createAccount(page.context().request, account);
  const mail = await newestMail(page, account.email, /Confirma tu correo/);
  await page.goto(mail.link!);
  await openPage(page, "/paciente/citas");
  await page.getByRole("button", { name: "Agendar Nueva Cita" }).click();
  const dialog = page.getByRole("dialog", { name: "Agendar nueva cita" });
  await dialog.getByRole("radio", { name: /^Consulta y evaluación/ }).check();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await expect(dialog.getByRole("heading", { name: "Paso 2 de 5: Dentista" })).toBeVisible();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  const days = dialog.getByTestId("day-options").getByRole("button");
  await expect(days.nth(3)).toBeVisible();
  await days.nth(2 + Math.floor(Math.random() * ((await days.count()) - 2))).click();
  const times = dialog.getByTestId("time-options").getByRole("button");
  await expect(times.first()).toBeVisible();
  await times.last().click();
  await dialog.getByRole("button", { name: "Confirmar cita" }).click();
  await expect(page.getByText(/quedó agendada para el/)).toBeVisible();

  // Staff: Dentalink is connected (live mode against the fake), and the booking waits for its retry, with why.
  const staffContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await useOwnClientIp(staffContext);
  const staff = await staffContext.newPage();
  try {
    await signInByRequest(staff, DEMO_ADVISOR, DEMO_PASSWORD);
    await openPage(staff, "/funnel");
    await expect(staff.getByTestId("system-dentalink")).toContainText("Conectado");

    const item = staff
      .getByTestId("dentalink-writethrough-failed")
      .getByTestId("writethrough-item")
      .filter({ hasText: patientName });
    await expect(async () => {
      await openPage(staff, "/funnel?tab=dentalink");
      await expect(item).toBeVisible({ timeout: 1_000 });
    }, "the failed write-through listed on the Dentalink tab").toPass({ timeout: 30_000 });
    await expect(item).toHaveAttribute("data-state", "retrying");
    await expect(item.getByTestId("writethrough-state")).toContainText(/Reintentando \(intento \d+ de 8\)/);
    await expect(item.getByTestId("writethrough-reason")).toContainText(
      "Dentalink no respondió o falló; el envío se reintentará automáticamente.",
    );
    await expect(item).toContainText("Reserva del");
    const { ids, report } = await blockingViolations(staff);
    expect(ids, `axe on the Dentalink tab with a failed write-through:\n${report}`).toEqual([]);
    expect((await fakeState(staff)).patients.some((patient) => patient.email === account.email)).toBe(false);

    // Dentalink recovers; staff retry now instead of waiting for the backoff.
    await fake(staff, "/__fake/recover", { path: account.email });
    await item.getByRole("button", { name: "Reintentar ahora" }).click();
    // (The outbox's own backoff may have sent it a moment before the click: then there is nothing to retry.)
    await expect(item.getByRole("status")).toHaveText(
      /^(Reintento en curso\.|Ese envío ya no está pendiente de reintento\.)$/,
    );
    await expect(async () => {
      await openPage(staff, "/funnel?tab=dentalink");
      await expect(item).toHaveCount(0, { timeout: 1_000 });
    }, "the write-through sent and gone from the list").toPass({ timeout: 30_000 });

    // At Dentalink: the patient, created once, with one appointment in a demo dentist's agenda.
    const state = await fakeState(staff);
    const created = state.patients.filter((patient) => patient.email === account.email);
    expect(created).toHaveLength(1);
    const appointments = state.appointments.filter((booked) => booked.id_paciente === created[0]!.id);
    expect(appointments).toHaveLength(1);
    expect(appointments[0]!.id_dentista).toMatch(/^dr-(morales|vidal|araya|campos)$/);
  } finally {
    await staffContext.close();
  }
});

test("an admin sees which Dentalink dentist each of ours books into, and saves a link", async ({ page }) => {
  await signInByRequest(page, "admin@clinica.example", DEMO_PASSWORD);
  await openPage(page, "/funnel?tab=dentalink");
  const links = page.getByTestId("dentalink-dentist-links");
  await expect(links.getByRole("heading", { name: "Dentistas del portal en Dentalink" })).toBeVisible();
  // The demo dentists were linked once by name to the fake's (mock mode's) four.
  const byName = (name: string) =>
    page
      .getByTestId("dentist-link")
      .filter({ has: page.getByTestId("dentist-link-name").getByText(name, { exact: true }) });
  const campos = byName("Dra. Isidora Campos");
  await expect(campos.getByTestId("dentist-link-state")).toContainText("(dr-campos)");
  const choice = campos.getByLabel("Dentista de Dentalink para Dra. Isidora Campos");
  await expect(choice).toHaveValue("dr-campos");
  const { ids, report } = await blockingViolations(page);
  expect(ids, `axe on the Dentalink tab as an admin:\n${report}`).toEqual([]);

  // Saved by an admin (the same agenda: other tests keep booking with her).
  await choice.focus();
  await page.keyboard.press("Tab");
  await expect(campos.getByRole("button", { name: "Guardar" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(campos.getByRole("status")).toHaveText("Vínculo con Dentalink guardado.");
  await openPage(page, "/funnel?tab=dentalink");
  await expect(byName("Dra. Isidora Campos").getByTestId("dentist-link-state")).toContainText(
    "vinculado por un administrador",
  );
  await expect(links).toBeVisible();
});
