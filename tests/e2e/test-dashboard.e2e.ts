import { expect, test, type Page } from "@playwright/test";
import { whatsAppFakeUrl } from "../../playwright.config";
import {
  blockingViolations,
  DEMO_PASSWORD,
  openLanding,
  openPage,
  signInByRequest,
  useOwnClientIp,
} from "./support";

// The test dashboard's WhatsApp card (test mode, then the fake provider with an injected failure and
// 'Reintentar'), its API log, /funnel/mensajes, and a hot lead from the landing form delivered by the fake.
// Serial: the failure injected at the fake must meet this file's message, not another test's.
test.describe.configure({ mode: "serial" });

const DEMO_ADVISOR = "asesor@clinica.example";
/** The hot scenario's phone (+56 9 8765 1234) as the provider gets it. */
const HOT_PHONE = "56987651234";
/** The clinic's WhatsApp number (demo clinic facts), where the advisor notices go. */
const CLINIC_PHONE = "56987654321";
const SUCCESS = "Mensajes enviados exitosamente...";
const ERROR = "Error al enviar mensajes de WhatsApp. Por favor, intenta nuevamente.";

interface SentMessage {
  to: string;
  text?: string;
  template?: string;
  placeholders?: string[];
  messageId: string;
  callbackData?: string;
}

/** What a message says: its text, or a template's placeholders (outside the recipient's 24-hour window). */
const said = (message: SentMessage) => message.text ?? (message.placeholders ?? []).join(" | ");

async function sentAtFake(page: Page): Promise<SentMessage[]> {
  const response = await page.request.get(`${whatsAppFakeUrl}/__fake/sent`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { sent: SentMessage[] }).sent;
}

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("test dashboard: the WhatsApp card in test mode, then against the provider with an error and 'Reintentar'", async ({
  page,
}) => {
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, "/test");
  const card = page.getByTestId("whatsapp-card");
  const sendButton = card.getByRole("button", { name: "Enviar mensajes de WhatsApp" });
  const testMode = card.getByRole("checkbox", { name: "Modo de prueba" });

  // No test lead yet: the button waits for one, and says why.
  await expect(sendButton).toBeDisabled();
  await expect(card).toContainText("Aún no hay un lead de prueba");
  await expect(testMode).toBeChecked();

  // The hot scenario: 85 points, shown after the 1.5 s presentation delay.
  const hot = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Lead caliente" }) });
  const started = Date.now();
  await hot.getByRole("button", { name: "Ejecutar prueba" }).click();
  const result = page.getByTestId("test-result").first();
  await expect(result).toContainText("Carolina Vega");
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
  await expect(result).toContainText("85");
  await expect(result).toContainText("Coincide con el puntaje esperado (85).");
  await expect(card).toContainText("Lead caliente: Carolina Vega (85 puntos, Caliente)");

  // Test mode: success, nothing reaches the provider.
  await sendButton.click();
  await expect(card.getByText(SUCCESS)).toBeVisible();
  await expect(sendButton).toBeDisabled();
  const log = card.getByTestId("whatsapp-api-log-entry");
  await expect(log).toHaveCount(2);
  await expect(log.first()).toContainText("/whatsapp/1/message/template"); // nobody wrote in: window closed
  await expect(log.first()).toContainText("(prueba)");
  await expect(log.first()).toContainText(/test-[0-9a-f-]{36}/);
  expect((await sentAtFake(page)).filter((message) => message.callbackData === "test")).toEqual([]);
  let { ids, report } = await blockingViolations(page);
  expect(ids, `axe on /test:\n${report}`).toEqual([]);

  // Against the provider, with the patient's message refused once: the error, then 'Reintentar' succeeds.
  await testMode.uncheck();
  await expect(sendButton).toBeEnabled();
  const injected = await page.request.post(`${whatsAppFakeUrl}/__fake/fail`, {
    data: { times: 1, status: 400, to: HOT_PHONE },
  });
  expect(injected.ok()).toBe(true);
  await sendButton.click();
  await expect(card.getByRole("alert")).toContainText(ERROR);
  await expect(card.getByText(SUCCESS)).toHaveCount(0);
  await card.getByRole("button", { name: "Reintentar" }).click();
  await expect(card.getByText(SUCCESS)).toBeVisible();
  await expect(card.getByRole("alert")).toHaveCount(0);

  // At the provider: the first attempt's advisor notice (its patient message was refused), then the retry's two
  // messages, the advisor notice to the clinic first. Nothing of the test-mode send.
  const sent = (await sentAtFake(page)).filter((message) => message.callbackData === "test");
  expect(sent.map((message) => message.to)).toEqual([CLINIC_PHONE, CLINIC_PHONE, HOT_PHONE]);
  // Neither number wrote to the clinic: outside the 24-hour window the approved templates go.
  expect(sent.map((message) => message.template)).toEqual([
    "lead_aviso_asesor",
    "lead_aviso_asesor",
    "lead_confirmacion_paciente",
  ]);
  expect(said(sent[1]!)).toContain("Dashboard de Pruebas");
  expect(said(sent[2]!)).toContain("Carolina");

  // The API log: the latest calls, the failed one with its reason; kept on the server across a reload.
  await expect(log).toHaveCount(6);
  await expect(card.getByTestId("whatsapp-api-log")).toContainText("Fallido");
  await openPage(page, "/test");
  await expect(page.getByTestId("whatsapp-api-log-entry")).toHaveCount(6);
  await expect(page.getByTestId("whatsapp-api-log-entry").first()).not.toContainText("(prueba)");
  await expect(page.getByTestId("whatsapp-api-log")).toContainText("Fallido");

  // /funnel/mensajes lists them with their status.
  await openPage(page, "/funnel/mensajes?proposito=test");
  const rows = page.getByTestId("message-row");
  await expect(rows).toHaveCount(6);
  await expect(page.getByTestId("messages-table")).toContainText("Fallido");
  await expect(page.getByTestId("messages-table")).toContainText("Prueba");
  await expect(rows.filter({ hasText: "lead_aviso_asesor" }).first()).toContainText(
    /Aceptado|Entregado|Leído/,
  );
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on /funnel/mensajes:\n${report}`).toEqual([]);

  // A filter value that is not valid: a Spanish message, no crash.
  await openPage(page, "/funnel/mensajes?estado=enviado");
  await expect(page.getByTestId("messages-error")).toHaveText(
    "Estado desconocido: elige un estado de la lista.",
  );
});

test("a hot lead from the landing form: two messages at the provider, delivered on /funnel/mensajes", async ({
  page,
}) => {
  const local = String(Math.floor(Math.random() * 1e8)).padStart(8, "0");
  const phone = `+569${local}`;
  const name = `Rocío Pizarro ${local}`;
  await openLanding(page);
  const form = page.locator("#lead-capture");
  await form.getByLabel("Nombre completo").fill(name);
  await form.getByLabel("Teléfono").fill(phone);
  await form.getByLabel("E-mail (opcional)").fill("rocio@correo.example");
  await form.getByLabel("Tratamiento de interés").selectOption({ label: "Implantes dentales" });
  await form.getByLabel("¿Cuándo te gustaría comenzar?").selectOption({ label: "Lo antes posible" });
  await form.getByLabel("Presupuesto estimado").selectOption({ label: "Más de $1.500.000" });
  await form
    .getByLabel("Mensaje (opcional)")
    .fill("Me falta una muela hace meses y quiero un implante cuanto antes; puedo ir esta semana.");
  await form.getByRole("checkbox", { name: /Acepto que la clínica use estos datos/ }).check();
  await form.getByRole("button", { name: "Quiero mi evaluación gratuita" }).click();
  await expect(page.getByTestId("lead-success")).toContainText("15 minutos");

  // The outbox worker (every 2 s) sends both to the provider: the advisor notice, then the patient's confirmation.
  let ours: SentMessage[] = [];
  await expect(async () => {
    ours = (await sentAtFake(page)).filter(
      (message) => message.to === phone.slice(1) || said(message).includes(name),
    );
    expect(ours).toHaveLength(2);
  }).toPass({ timeout: 15_000 });
  expect(ours[0]!.callbackData).toBe("lead-advisor");
  expect(said(ours[0]!)).toContain(name);
  expect(ours[1]).toMatchObject({ to: phone.slice(1), callbackData: "lead-patient" });

  // The provider's delivery reports reach the server: 'Entregado' on the staff page.
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  const row = page.getByTestId("message-row");
  await expect(async () => {
    await openPage(page, `/funnel/mensajes?telefono=${encodeURIComponent(phone)}`);
    await expect(row).toHaveCount(1, { timeout: 1_000 });
    await expect(row).toContainText("Entregado", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(row).toContainText("Nuevo lead: confirmación al paciente");
  await expect(row).toContainText(`+56 9 ${local.slice(0, 4)} ${local.slice(4)}`);
  await expect(row).toContainText("No");
});
