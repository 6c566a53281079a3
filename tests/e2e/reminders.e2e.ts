import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { whatsAppFakeUrl } from "../../playwright.config";
import { readFile } from "node:fs/promises";
import { isQuietHour } from "~/domain/reminder-sequence";
import {
  blockingViolations,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  DEMO_PATIENT,
  openPage,
  signInByRequest,
} from "./support";

// ADR 018: the demo patient's appointment 8¼ to 24 hours after the seed is reminded by the job's first run after the
// e2e server's fresh demo start (ADR 039: at 08:00 when the server started in quiet hours); the reminder reaches the
// fake WhatsApp provider as the `recordatorio_cita` template, and its 'Confirmar', 'Necesito hablar con alguien'
// (ADR 039) and 'Cancelar' links work without signing in.

/** The demo patient's mobile (+56 9 1111 2222), as the provider takes it. */
const DEMO_PATIENT_NUMBER = "56911112222";

interface SentMessage {
  endpoint: "text" | "template";
  to: string;
  template?: string;
  placeholders?: string[];
}

/** The placeholders of the demo patient's reminder at the fake provider, if it has arrived. */
async function sentDemoReminder(request: APIRequestContext): Promise<string[] | undefined> {
  const response = await request.get(`${whatsAppFakeUrl}/__fake/sent`);
  const { sent } = (await response.json()) as { sent: SentMessage[] };
  return sent.find(
    (message) =>
      message.endpoint === "template" &&
      message.template === "recordatorio_cita" &&
      message.to === DEMO_PATIENT_NUMBER,
  )?.placeholders;
}

/** Polls the fake provider for the demo patient's reminder (queued at boot, sent by the outbox within seconds). */
async function demoReminder(request: APIRequestContext): Promise<string[]> {
  let placeholders: string[] | undefined;
  await expect
    .poll(
      async () => {
        placeholders = await sentDemoReminder(request);
        return placeholders !== undefined;
      },
      { timeout: 45_000, intervals: [500, 1_000, 2_000] },
    )
    .toBe(true);
  return placeholders!;
}

async function expectNoBlockingViolations(page: Page) {
  const { ids, report } = await blockingViolations(page);
  expect(ids, report).toEqual([]);
}

test("the demo reminder reaches the provider; 'Confirmar' confirms once, 'Necesito hablar con alguien' reaches the clinic, 'Cancelar' shows the 50% fee and cancels", async ({
  page,
  request,
}) => {
  // Two axe runs and a wait for the reminder on a busy 2-core machine.
  test.slow();
  // Quiet hours (ADR 039: nothing goes out after 21:00 or before 08:00 on the clinic's clock): a server started in
  // them holds the reminder until 08:00, so only one sent before 21:00 can be here now.
  // On the clinic morning of scripts/test-all.sh (CLOCK_AT: the clocks shifted to 10:00 on a weekday) it must run.
  test.skip(
    !process.env.CLOCK_AT && isQuietHour(new Date()) && (await sentDemoReminder(request)) === undefined,
    "quiet hours: the demo reminder waits for 08:00 (ADR 039); its links are covered by tests/integration on this run",
  );
  const [name, date, time, confirmUrl, cancelUrl, callbackUrl] = await demoReminder(request);
  expect(name).toBe("Catalina");
  expect(time).toMatch(/^\d{2}:\d{2}$/);
  const confirmPath = new URL(confirmUrl!).pathname;
  const cancelPath = new URL(cancelUrl!).pathname;
  expect(confirmPath).toMatch(/^\/cita\/confirmar\/[A-Za-z0-9_-]{43}$/);
  expect(cancelPath).toMatch(/^\/cita\/cancelar\/[A-Za-z0-9_-]{43}$/);

  // The confirm page, not signed in: the appointment and a button; opening it changes nothing.
  await openPage(page, confirmPath);
  await expect(page.getByRole("heading", { level: 1, name: "Confirma tu cita" })).toBeVisible();
  const details = page.getByTestId("link-appointment");
  await expect(details).toContainText(new RegExp(date!, "i"));
  await expect(details).toContainText(time!);
  await expect(details).toContainText("Limpieza dental");
  await expect(details).toContainText("Dr. Tomás Araya");
  await expect(page.getByTestId("link-status")).toHaveText("Programada");
  await expectNoBlockingViolations(page);
  await openPage(page, confirmPath);
  await expect(page.getByTestId("link-status")).toHaveText("Programada");

  await page.getByRole("button", { name: "Confirmar mi cita" }).click();
  await expect(page.getByTestId("link-message")).toHaveText(
    "¡Listo! Tu cita quedó confirmada. Te esperamos.",
  );
  await expect(page.getByTestId("link-status")).toHaveText("Confirmada");
  // A second use acts no more and says so.
  await openPage(page, confirmPath);
  await expect(page.getByRole("heading", { level: 1, name: "Este enlace ya se usó" })).toBeVisible();
  await expect(page.getByTestId("link-message")).toHaveText(
    "Este enlace ya se usó para confirmar tu cita; no vuelve a actuar.",
  );
  await expect(page.getByRole("button", { name: "Confirmar mi cita" })).toHaveCount(0);

  // 'Necesito hablar con alguien': one request, which the clinic sees in Solicitudes; the link then acts no more.
  const callbackPath = new URL(callbackUrl!).pathname;
  expect(callbackPath).toMatch(/^\/cita\/hablar\/[A-Za-z0-9_-]{43}$/);
  await openPage(page, callbackPath);
  await expect(page.getByRole("heading", { level: 1, name: "Necesito hablar con alguien" })).toBeVisible();
  await expectNoBlockingViolations(page);
  await page.getByRole("button", { name: "Pedir que me llamen" }).click();
  await expect(page.getByTestId("link-message")).toHaveText(
    "Recibimos tu solicitud. Un asesor de la clínica te llamará pronto.",
  );
  await openPage(page, callbackPath);
  await expect(page.getByRole("heading", { level: 1, name: "Este enlace ya se usó" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pedir que me llamen" })).toHaveCount(0);
  const staff = await page.context().browser()!.newContext();
  const staffPage = await staff.newPage();
  await signInByRequest(staffPage, DEMO_ADMIN, DEMO_PASSWORD);
  await openPage(staffPage, "/admin/solicitudes");
  const row = staffPage
    .getByTestId("callbacks-table")
    .getByRole("row")
    .filter({ hasText: "Catalina" })
    .filter({ hasText: "Origen: Recordatorio de cita" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(time!);
  await staff.close();

  // The cancel link still works: less than 24 hours ahead, so the page shows the 50% fee before anything is done.
  await openPage(page, cancelPath);
  await expect(page.getByRole("heading", { level: 1, name: "Cancelar tu cita" })).toBeVisible();
  await expect(page.getByTestId("link-status")).toHaveText("Confirmada");
  await expect(page.getByTestId("cancel-policy")).toHaveText(
    "Faltan menos de 24 horas para tu cita: según nuestra política, cancelar ahora tiene un cargo del 50% del tratamiento ($17.500).",
  );
  await expectNoBlockingViolations(page);
  await page.getByRole("button", { name: "Cancelar mi cita y aceptar el cargo" }).click();
  await expect(page.getByTestId("link-message")).toHaveText(
    "Tu cita fue cancelada. Según nuestra política, se registró un cargo de $17.500 (50% del tratamiento).",
  );
  await expect(page.getByTestId("link-status")).toHaveText("Cancelada");
  await openPage(page, cancelPath);
  await expect(page.getByTestId("link-message")).toHaveText(
    "Este enlace ya se usó para cancelar tu cita; no vuelve a actuar.",
  );

  // The patient sees it in Mis Citas: the cancelled cleaning with its fee.
  await signInByRequest(page, DEMO_PATIENT, DEMO_PASSWORD);
  await openPage(page, "/paciente/citas");
  const card = page
    .getByTestId("appointment-card")
    .filter({ hasText: "Limpieza dental" })
    .filter({ hasText: "Dr. Tomás Araya" });
  await expect(card.getByTestId("status-badge")).toHaveText("Cancelada");
});

test("a forged link answers a Spanish 404 page", async ({ page }) => {
  const response = await page.goto(`/cita/confirmar/${"A".repeat(43)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Enlace no válido" })).toBeVisible();
  await expect(page.getByTestId("link-message")).toContainText("Este enlace no es válido");
});

test("'Agregar al calendario' on a Mis Citas card downloads the appointment's .ics", async ({ page }) => {
  await signInByRequest(page, DEMO_PATIENT, DEMO_PASSWORD);
  await openPage(page, "/paciente/citas");
  const card = page
    .getByTestId("appointment-card")
    .filter({ has: page.getByTestId("calendar-links") })
    .first();
  await expect(card.getByRole("link", { name: /Google Calendar/ })).toHaveAttribute(
    "href",
    /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE/,
  );
  await expect(card.getByRole("link", { name: /Outlook/ })).toHaveAttribute(
    "href",
    /^https:\/\/outlook\.live\.com\//,
  );
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    card.getByRole("link", { name: "Agregar al calendario" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^cita-\d{4}-\d{2}-\d{2}\.ics$/);
  const ics = await readFile((await download.path())!, "utf8");
  expect(ics).toContain("BEGIN:VCALENDAR");
  expect(ics).toMatch(/DTSTART:\d{8}T\d{6}Z/);
  expect(ics).toContain("BEGIN:VALARM");
  expect(ics.replace(/\r\n[ \t]/g, "")).toContain("LOCATION:Av. Providencia 1234");
  await expectNoBlockingViolations(page);
});

test("the admin switches a reminder step off and on in /admin/recordatorios", async ({ page }) => {
  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  await openPage(page, "/admin/recordatorios");
  await expect(page.getByRole("heading", { level: 1, name: "Recordatorios" })).toBeVisible();
  const twoHours = page.getByRole("checkbox", { name: "2 horas antes" });
  await expect(twoHours).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "48 horas antes" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "24 horas antes" })).toBeChecked();
  await expectNoBlockingViolations(page);
  try {
    await twoHours.uncheck();
    await page.getByRole("button", { name: "Guardar" }).click();
    await expect(page.getByTestId("admin-status")).toHaveText("Guardamos la secuencia de recordatorios.");
    await openPage(page, "/admin/recordatorios");
    await expect(page.getByRole("checkbox", { name: "2 horas antes" })).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: "24 horas antes" })).toBeChecked();
  } finally {
    // The e2e server is shared: leave the default sequence for the other tests.
    await openPage(page, "/admin/recordatorios");
    await page.getByRole("checkbox", { name: "2 horas antes" }).check();
    await page.getByRole("button", { name: "Guardar" }).click();
    await expect(page.getByTestId("admin-status")).toBeVisible();
  }
  await expect(page.getByRole("checkbox", { name: "2 horas antes" })).toBeChecked();
});
