import { expect, type Browser, type Locator, type Page } from "@playwright/test";
import { webpayFakeUrl } from "../../playwright.config";
import {
  blockingViolations,
  createAccount,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  newAccount,
  newestMail,
  openPage,
  randomClientIp,
  signInByRequest,
  testWithMailReader,
  useOwnClientIp,
} from "./support";

// Webpay Plus as patients and admins use it (ADR 036): booking a treatment with a deposit in Mis Citas, Transbank's
// form (the fake started by playwright.config.ts, on its own origin), the result page, Mis Pagos with its receipts,
// cancelling with a paid deposit, and an admin's refund in /admin/pagos. Every test has its own fresh patient and
// its own day, so the tests run in parallel without meeting.

/** The seeded 'Implante dental': $850.000, with a 20 % deposit in the e2e database (demo seed, ADR 036). */
const IMPLANT = {
  slug: "implantes",
  name: "Implante dental",
  price: "$850.000",
  deposit: "$170.000",
  remainder: "$680.000",
  /** The 50 % late-cancellation fee on the price, and what is left of it once the deposit is applied. */
  lateFee: "$425.000",
  lateFeeDue: "$255.000",
  minutes: 90,
} as const;

/** Transbank's integration test cards (app/integrations/webpay/webpay-fake.ts). */
const APPROVED_CARD = "4051 8856 0044 6623";
const REJECTED_CARD = "5186 0595 5959 0568";

const test = testWithMailReader;

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

/**
 * Which of the offered open days (counted from the last one) each test books on: no two tests of this file share a
 * day, and appointments.e2e.ts picks its days at random, so a random free time keeps clashes with it unlikely.
 */
const DAY_FROM_END = {
  approved: 0,
  rejected: 1,
  aborted: 2,
  inTimeCancel: 3,
  adminRefund: 4,
} as const;

const upcomingPanel = (page: Page) => page.getByTestId("panel-upcoming");
const appointmentCards = (page: Page) => upcomingPanel(page).getByTestId("appointment-card");

async function openAppointments(page: Page) {
  await openPage(page, "/paciente/citas");
  await expect(page.getByRole("heading", { level: 1, name: "Mis Citas" })).toBeVisible();
}

/** A fresh patient who confirmed the e-mail (booking needs it), signed in in this browser context, on Mis Citas. */
async function verifiedPatient(page: Page, mailReader: Page) {
  const account = await createAccount(page.context().request, newAccount("pagos"));
  const mail = await newestMail(mailReader, account.email, /Confirma tu correo/);
  expect(mail.link, `a link in:\n${mail.text}`).toBeTruthy();
  const confirmed = await page.goto(mail.link!);
  expect(confirmed?.ok(), `following ${mail.link} answers ${confirmed?.status()}`).toBe(true);
  await openAppointments(page);
  return account;
}

/** The booking dialog opened from Mis Citas, on the treatment step with the implant chosen, at the date step. */
async function openBookingAtDateStep(page: Page) {
  await page.getByRole("button", { name: "Agendar Nueva Cita" }).click();
  const dialog = page.getByRole("dialog", { name: "Agendar nueva cita" });
  await expect(dialog.getByRole("heading", { name: "Paso 1 de 5: Tratamiento" })).toBeVisible();
  await dialog.getByRole("radio", { name: new RegExp(`^${IMPLANT.name}`) }).check();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await expect(dialog.getByRole("radio", { name: "Cualquier dentista disponible" })).toBeChecked();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await expect(dialog.getByRole("heading", { name: "Paso 3 de 5: Fecha" })).toBeVisible();
  return dialog;
}

/** Clicks the day given by its date, or by its place from the end of the offered days. */
async function chooseDay(dialog: Locator, day: { date: string } | { fromEnd: number }) {
  const days = dialog.getByTestId("day-options").getByRole("button");
  let button: Locator;
  if ("date" in day) {
    button = dialog.getByTestId("day-options").locator(`button[data-date="${day.date}"]`);
  } else {
    const count = await days.count();
    expect(count, "the dialog offers enough open days").toBeGreaterThan(Object.keys(DAY_FROM_END).length + 2);
    button = days.nth(count - 1 - day.fromEnd);
  }
  const date = (await button.getAttribute("data-date"))!;
  const label = (await button.getAttribute("data-label"))!;
  await button.click();
  await expect(dialog.getByRole("heading", { name: "Paso 4 de 5: Hora" })).toBeVisible();
  return { date, label };
}

/** The <dd> of a <dt> with exactly this text, in a description list. */
const definition = (container: Locator, term: string) =>
  container
    .locator("dt")
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator("xpath=following-sibling::dd[1]");

const timeButtons = (dialog: Locator) => dialog.getByTestId("time-options").getByRole("button");

/** The free times the dialog shows for the chosen day (waits for them to load). */
async function freeTimes(dialog: Locator) {
  await expect(timeButtons(dialog).first()).toBeVisible();
  return (await timeButtons(dialog).allInnerTexts()).map((time) => time.trim());
}

/**
 * Mis Citas → 'Agendar Nueva Cita' → the implant, any dentist, the day and a free time → the confirmation step,
 * which must state the money and the terms BEFORE the patient leaves for Webpay → 'Pagar abono con Webpay' → the
 * fake's own payment form (its own origin).
 */
async function bookImplantAndGoToWebpay(
  page: Page,
  day: { date: string } | { fromEnd: number },
  time?: string,
) {
  const dialog = await openBookingAtDateStep(page);
  const chosen = await chooseDay(dialog, day);
  const times = await freeTimes(dialog);
  // A random free time: tests of other files booking the same day rarely take the same one.
  const pick = time ?? times[Math.floor(Math.random() * times.length)]!;
  expect(times, `${pick} is offered on ${chosen.date}`).toContain(pick);
  await timeButtons(dialog)
    .and(dialog.getByRole("button", { name: pick, exact: true }))
    .click();
  await expect(dialog.getByRole("heading", { name: "Paso 5 de 5: Confirmar" })).toBeVisible();

  const summary = dialog.getByTestId("booking-summary");
  await expect(summary).toContainText(IMPLANT.name);
  await expect(summary).toContainText(chosen.label);
  await expect(summary).toContainText(`${pick} (${IMPLANT.minutes} min)`);
  await expect(definition(summary, "Precio estimado")).toHaveText(IMPLANT.price);
  await expect(definition(summary, "Abono")).toHaveText(IMPLANT.deposit);
  const terms = dialog.getByRole("region", { name: "Pago del abono" });
  await expect(definition(terms, "Precio del tratamiento")).toHaveText(IMPLANT.price);
  await expect(definition(terms, "Abono a pagar ahora")).toHaveText(IMPLANT.deposit);
  await expect(definition(terms, "Por pagar en la clínica")).toHaveText(IMPLANT.remainder);
  await expect(terms).toContainText(
    "Se descuenta del valor del tratamiento; el resto se paga en la clínica.",
  );
  await expect(terms).toContainText("Reservamos el horario por 15 minutos mientras pagas con Webpay.");
  await expect(terms).toContainText(
    "cancelar con 24 horas o más de anticipación no tiene costo; con menos de 24 horas se cobra el 50% del valor del tratamiento",
  );
  await expect(terms).toContainText("los datos de tu tarjeta no pasan por la clínica");
  // Still on the clinic's page: nothing was sent yet.
  expect(new URL(page.url()).pathname).toBe("/paciente/citas");

  await dialog.getByRole("button", { name: "Pagar abono con Webpay" }).click();
  await expectWebpayForm(page, IMPLANT.deposit);
  return { ...chosen, time: pick };
}

/** The fake Transbank form, on its own origin, asking for the amount. */
async function expectWebpayForm(page: Page, amount: string) {
  await page.waitForURL((url) => url.origin === webpayFakeUrl, { timeout: 20_000 });
  expect(new URL(page.url()).origin).toBe(webpayFakeUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Webpay de prueba" })).toBeVisible();
  await expect(page.getByText(amount, { exact: true })).toBeVisible();
}

/** Enters a card on the fake's form and pays; resolves on the clinic's result page. */
async function payWithCard(page: Page, card: string) {
  await page.getByLabel("Número de tarjeta").fill(card);
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await waitForResultPage(page);
}

async function waitForResultPage(page: Page) {
  await page.waitForURL((url) => url.pathname.startsWith("/paciente/pagos/resultado/"), { timeout: 20_000 });
  await expect(page.getByTestId("payment-result")).toBeVisible();
}

async function expectNoAxeViolations(page: Page, what: string) {
  const { ids, report } = await blockingViolations(page);
  expect(ids, `axe on ${what}:\n${report}`).toEqual([]);
}

/** The only card on Mis Citas (each test's patient has one appointment), after a fresh load. */
async function theAppointment(page: Page) {
  await openAppointments(page);
  const cards = appointmentCards(page);
  await expect(cards).toHaveCount(1);
  return cards.first();
}

/** Whether `time` is offered again for the implant on `date` (the booking dialog, closed afterwards). */
async function offeredAgain(page: Page, date: string, time: string) {
  const dialog = await openBookingAtDateStep(page);
  await chooseDay(dialog, { date });
  const times = await freeTimes(dialog);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  return times.includes(time);
}

const paymentRows = (page: Page) => page.getByRole("region", { name: "Pagos y reembolsos" }).getByRole("row");
/** Mis Pagos' rows of one movement ("Pago" or "Reembolso"). */
const movementRows = (page: Page, movement: "Pago" | "Reembolso") =>
  paymentRows(page).filter({ has: page.getByRole("cell", { name: movement, exact: true }) });

/** A payment made in the browser: the implant booked on its day, paid with the approved card. */
async function bookAndPayImplant(page: Page, day: { fromEnd: number }) {
  const booked = await bookImplantAndGoToWebpay(page, day);
  await payWithCard(page, APPROVED_CARD);
  await expect(page.getByRole("heading", { level: 1, name: "¡Pago aprobado!" })).toBeVisible();
  return booked;
}

/** The demo admin signed in in a browser context of its own, from its own client address (see useOwnClientIp). */
async function signedInAdmin(browser: Browser) {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-forwarded-for": randomClientIp() },
  });
  const page = await context.newPage();
  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  return page;
}

test("a deposit paid with the approved card confirms the booking; Mis Pagos lists it with its PDF receipt", async ({
  page,
  mailReader,
}) => {
  // Two axe runs, a booking and a payment on a busy 2-core machine.
  test.slow();
  await verifiedPatient(page, mailReader);
  const booked = await bookImplantAndGoToWebpay(page, { fromEnd: DAY_FROM_END.approved });
  await expect(page.getByText("Río Clínica (prueba)")).toBeVisible();
  await payWithCard(page, APPROVED_CARD);

  const result = page.getByTestId("payment-result");
  await expect(result).toHaveAttribute("data-state", "authorized");
  await expect(page.getByRole("heading", { level: 1, name: "¡Pago aprobado!" })).toBeVisible();
  await expect(result).toContainText(`Abono: ${IMPLANT.name}`);
  await expect(result).toContainText(IMPLANT.deposit);
  await expect(result).toContainText("terminada en 6623");
  await expect(result).toContainText("Código de autorización");
  await expect(page.getByRole("status").filter({ hasText: "Tu cita quedó Confirmada" })).toBeVisible();
  await expect(page.getByTestId("receipt-link")).toHaveText("Descargar comprobante");
  await expectNoAxeViolations(page, "the result page (approved)");

  await result.getByRole("link", { name: "Mis Citas" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/paciente/citas");
  const card = await theAppointment(page);
  await expect(card.getByRole("heading", { name: IMPLANT.name })).toBeVisible();
  await expect(card.getByTestId("status-badge")).toHaveText("Confirmada");
  await expect(card).toContainText(booked.label);
  await expect(card).toContainText(`${booked.time} (${IMPLANT.minutes} min)`);
  await expect(card.getByRole("button", { name: /Pagar abono|Reintentar pago/ })).toHaveCount(0);

  await openPage(page, "/paciente/pagos");
  await expect(page.getByRole("heading", { level: 1, name: "Mis Pagos" })).toBeVisible();
  await expect(page.getByText("No tienes cobros pendientes.")).toBeVisible();
  const row = movementRows(page, "Pago").filter({ hasText: `Abono: ${IMPLANT.name}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(IMPLANT.deposit);
  await expect(row).toContainText("Pagado");
  await expect(row).toContainText("Crédito · ···· 6623");
  await expectNoAxeViolations(page, "Mis Pagos");

  const receipt = row.getByRole("link", { name: "Comprobante de pago" });
  const [download] = await Promise.all([page.waitForEvent("download"), receipt.click()]);
  expect(download.suggestedFilename()).toMatch(/^comprobante-[A-Za-z0-9_-]+\.pdf$/);
  const file = await download.path();
  expect(file).toBeTruthy();
  const href = (await receipt.getAttribute("href"))!;
  const response = await page.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(response.headers()["content-disposition"]).toContain(`filename="${download.suggestedFilename()}"`);
  const body = await response.body();
  expect(body.length).toBeGreaterThan(0);
  expect(body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
});

test("a rejected card releases the slot; 'Reintentar pago' takes it back and pays it", async ({
  page,
  mailReader,
}) => {
  test.slow();
  await verifiedPatient(page, mailReader);
  const booked = await bookImplantAndGoToWebpay(page, { fromEnd: DAY_FROM_END.rejected });
  await payWithCard(page, REJECTED_CARD);

  const result = page.getByTestId("payment-result");
  await expect(result).toHaveAttribute("data-state", "rejected");
  await expect(page.getByRole("heading", { level: 1, name: "Pago rechazado" })).toBeVisible();
  await expect(result.getByRole("status")).toHaveText("Tu banco rechazó el pago. No se hizo ningún cargo.");
  await expect(result).toContainText("Liberamos el horario que habías reservado.");
  await expect(result).toContainText(IMPLANT.deposit);
  await expect(result.getByRole("button", { name: "Reintentar pago" })).toBeVisible();
  const resultUrl = page.url();
  await expectNoAxeViolations(page, "the result page (rejected)");

  const card = await theAppointment(page);
  await expect(card.getByTestId("status-badge")).toHaveText("Pago no completado");
  await expect(card).toContainText("El pago del abono no se completó y liberamos el horario.");
  await expect(card.getByRole("button", { name: "Reintentar pago" })).toBeVisible();
  // The released time is free for anyone again.
  expect(await offeredAgain(page, booked.date, booked.time), `${booked.time} is offered again`).toBe(true);

  await openPage(page, "/paciente/pagos");
  const attempt = movementRows(page, "Pago").filter({ hasText: `Abono: ${IMPLANT.name}` });
  await expect(attempt).toContainText("Rechazado");
  await expect(attempt.getByRole("link", { name: "Comprobante de pago" })).toHaveCount(0);

  // 'Reintentar pago' on the result page: the slot is held again, a new attempt goes to Webpay and is approved.
  await openPage(page, new URL(resultUrl).pathname);
  await page.getByRole("button", { name: "Reintentar pago" }).click();
  await expectWebpayForm(page, IMPLANT.deposit);
  await payWithCard(page, APPROVED_CARD);
  await expect(page.getByRole("heading", { level: 1, name: "¡Pago aprobado!" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Tu cita quedó Confirmada" })).toBeVisible();

  const confirmed = await theAppointment(page);
  await expect(confirmed.getByTestId("status-badge")).toHaveText("Confirmada");
  await expect(confirmed).toContainText(`${booked.time} (${IMPLANT.minutes} min)`);
  await expect(confirmed).toContainText(booked.label);
  await expect(confirmed.getByRole("button", { name: "Reintentar pago" })).toHaveCount(0);
});

test("'Anular compra y volver' on Webpay's form: the payment is annulled and the slot released", async ({
  page,
  mailReader,
}) => {
  await verifiedPatient(page, mailReader);
  const booked = await bookImplantAndGoToWebpay(page, { fromEnd: DAY_FROM_END.aborted });
  // While the payer is on the form the slot is held for them.
  await page.getByRole("button", { name: "Anular compra y volver" }).click();
  await waitForResultPage(page);

  const result = page.getByTestId("payment-result");
  await expect(result).toHaveAttribute("data-state", "aborted");
  await expect(page.getByRole("heading", { level: 1, name: "Pago anulado" })).toBeVisible();
  await expect(result.getByRole("status")).toHaveText("Anulaste el pago en Webpay. No se hizo ningún cargo.");
  await expect(result).toContainText("Liberamos el horario que habías reservado.");
  await expect(result.getByRole("button", { name: "Reintentar pago" })).toBeVisible();

  const card = await theAppointment(page);
  await expect(card.getByTestId("status-badge")).toHaveText("Pago no completado");
  expect(await offeredAgain(page, booked.date, booked.time), `${booked.time} is offered again`).toBe(true);

  await openPage(page, "/paciente/pagos");
  await expect(movementRows(page, "Pago").filter({ hasText: `Abono: ${IMPLANT.name}` })).toContainText(
    "Anulado en Webpay",
  );
});

test("cancelling 24 hours or more ahead returns the paid deposit: the dialog says so and Mis Pagos shows the refund", async ({
  page,
  mailReader,
}) => {
  test.slow();
  await verifiedPatient(page, mailReader);
  await bookAndPayImplant(page, { fromEnd: DAY_FROM_END.inTimeCancel });

  const card = await theAppointment(page);
  await expect(card.getByTestId("status-badge")).toHaveText("Confirmada");
  await card.getByRole("button", { name: "Cancelar" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancelar cita" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("cancellation-deposit")).toHaveText(
    `Te devolveremos el abono de ${IMPLANT.deposit}.`,
  );
  await expect(dialog.getByTestId("cancellation-fee")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Sí, cancelar cita" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Tu cita fue cancelada sin costo.")).toBeVisible();
  await expect(card.getByTestId("status-badge")).toHaveText("Cancelada");

  // The refund goes to Webpay through the outbox: 'En proceso', then 'Reembolsado'.
  await expect(async () => {
    await openPage(page, "/paciente/pagos");
    const refund = movementRows(page, "Reembolso").filter({ hasText: `Abono: ${IMPLANT.name}` });
    await expect(refund).toHaveCount(1, { timeout: 1_000 });
    await expect(refund).toContainText(IMPLANT.deposit, { timeout: 1_000 });
    await expect(refund.getByText("Reembolsado", { exact: true })).toBeVisible({ timeout: 1_000 });
  }, "the deposit's refund is done").toPass({ timeout: 45_000, intervals: [1_000, 2_000, 3_000] });
  const payment = movementRows(page, "Pago").filter({ hasText: `Abono: ${IMPLANT.name}` });
  await expect(payment.getByText("Reembolsado", { exact: true })).toBeVisible();
  // A refunded payment keeps its receipt.
  await expect(payment.getByRole("link", { name: "Comprobante de pago" })).toBeVisible();
  await expect(page.getByText("No tienes cobros pendientes.")).toBeVisible();
});

// ---------------------------------------------------------------------------------------------------------------
// Cancelling late: needs a confirmed appointment with a paid deposit less than 24 hours ahead. Nothing seeds one
// for an e2e test (the server's embedded database is its own), and booking refuses starts under an hour away, so
// the test books the implant's first free time between 1 and 23 hours from now, when the clinic's hours have one.
// ---------------------------------------------------------------------------------------------------------------

/** The instant of a clinic wall-clock time (America/Santiago). */
function clinicInstant(date: string, time: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: "America/Santiago",
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(asUtc)
      .map((part) => [part.type, part.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
  );
  return asUtc - (wall - asUtc);
}

const HOUR_MS = 3_600_000;

/** The implant's free times on the first open days that start between 1 h 15 min and 23 h from now. */
async function lateCancellableSlot(page: Page): Promise<{ date: string; time: string } | null> {
  const dialog = await openBookingAtDateStep(page);
  const dates = await dialog
    .getByTestId("day-options")
    .getByRole("button")
    .evaluateAll((buttons) => buttons.slice(0, 3).map((button) => button.getAttribute("data-date") ?? ""));
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  for (const date of dates) {
    const response = await page.request.get(
      `/paciente/citas/horarios?${new URLSearchParams({ tratamiento: IMPLANT.slug, dentista: "any", fecha: date })}`,
    );
    expect(response.ok()).toBe(true);
    const body = (await response.json()) as { ok: boolean; data?: { slots: Array<{ time: string }> } };
    const now = Date.now();
    const fit = body.data?.slots.find(({ time }) => {
      const ahead = clinicInstant(date, time) - now;
      return ahead >= 1.25 * HOUR_MS && ahead <= 23 * HOUR_MS;
    });
    if (fit) return { date, time: fit.time };
  }
  return null;
}

test("cancelling less than 24 hours ahead applies the deposit to the 50% fee; the rest is owed and paid in Mis Pagos", async ({
  page,
  mailReader,
}) => {
  test.slow();
  await verifiedPatient(page, mailReader);
  const slot = await lateCancellableSlot(page);
  // On the clinic morning of scripts/test-all.sh (CLOCK_AT: the clocks shifted to 10:00 on a weekday) it must run.
  test.skip(
    !process.env.CLOCK_AT && slot === null,
    "no free implant time between 1 and 23 hours from now (evening or weekend): the late path is covered by tests/integration only on this run",
  );
  expect(slot).not.toBeNull();
  await bookImplantAndGoToWebpay(page, { date: slot!.date }, slot!.time);
  await payWithCard(page, APPROVED_CARD);
  await expect(page.getByRole("heading", { level: 1, name: "¡Pago aprobado!" })).toBeVisible();

  const card = await theAppointment(page);
  await expect(card.getByTestId("status-badge")).toHaveText("Confirmada");
  await card.getByRole("button", { name: "Cancelar" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancelar cita" });
  await expect(dialog.getByTestId("cancellation-fee")).toHaveText(IMPLANT.lateFee);
  await expect(dialog.getByTestId("cancellation-deposit")).toContainText(
    `Tu abono de ${IMPLANT.deposit} se aplica al cargo.`,
  );
  await expect(dialog.getByTestId("cancellation-deposit")).toContainText(
    `Quedarán por pagar ${IMPLANT.lateFeeDue}.`,
  );
  await expect(dialog.getByRole("button", { name: "Sí, cancelar cita" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Cancelar con cargo" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(
      `Tu cita fue cancelada. Según la política de cancelación se registró un cargo de ${IMPLANT.lateFee}.`,
    ),
  ).toBeVisible();

  await openPage(page, "/paciente/pagos");
  const fee = page
    .getByRole("region", { name: "Cobros pendientes" })
    .getByRole("listitem")
    .filter({ hasText: `Cancelación tardía: ${IMPLANT.name}` });
  await expect(fee).toContainText(`Cubierto con tu abono ${IMPLANT.deposit}`);
  await expect(fee).toContainText(`Por pagar: ${IMPLANT.lateFeeDue}`);
  await fee.getByRole("button", { name: `Pagar Cancelación tardía: ${IMPLANT.name}` }).click();
  await expectWebpayForm(page, IMPLANT.lateFeeDue);
  await payWithCard(page, APPROVED_CARD);
  await expect(page.getByRole("heading", { level: 1, name: "¡Pago aprobado!" })).toBeVisible();
  await openPage(page, "/paciente/pagos");
  await expect(page.getByText("No tienes cobros pendientes.")).toBeVisible();
  // The deposit was kept for the fee: no refund of it.
  await expect(movementRows(page, "Reembolso")).toHaveCount(0);
});

test("admin: a partial refund from /admin/pagos reaches Webpay and shows on the row and in the patient's Mis Pagos", async ({
  page,
  mailReader,
  browser,
}) => {
  test.slow();
  const patient = await verifiedPatient(page, mailReader);
  await bookAndPayImplant(page, { fromEnd: DAY_FROM_END.adminRefund });

  const admin = await signedInAdmin(browser);
  try {
    await openPage(admin, `/admin/pagos?${new URLSearchParams({ q: patient.email })}`);
    await expect(admin.getByRole("heading", { level: 1, name: "Pagos" })).toBeVisible();
    const row = admin.getByTestId("payments-table").getByRole("row").filter({ hasText: patient.email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`Abono: ${IMPLANT.name}`);
    await expect(row).toContainText(IMPLANT.deposit);
    await expect(row).toContainText("Pagado");
    await expectNoAxeViolations(admin, "/admin/pagos");

    await row.getByRole("button", { name: /^Reembolsar el pago / }).click();
    const dialog = admin.getByRole("dialog", { name: "Reembolsar pago" });
    await expect(dialog).toContainText(`Se puede reembolsar hasta ${IMPLANT.deposit}`);
    const amount = dialog.getByLabel("Monto a reembolsar (pesos)");
    await expect(amount).toHaveValue("170000");
    await amount.fill("50000");
    await dialog.getByLabel("Motivo").fill("Parte del abono se devuelve por un ajuste del presupuesto.");
    await dialog.getByRole("button", { name: "Solicitar reembolso" }).click();
    await expect(dialog.getByRole("status")).toHaveText("Reembolso de $50.000 solicitado a Webpay.");
    await admin.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // Requested: in progress until the outbox has Webpay's answer (it may already have it).
    await expect(row).toContainText(/\$50\.000 en curso|Reembolsado \$50\.000/);
    // Opened again, the dialog offers the form for what is left, not the last answer.
    await row.getByRole("button", { name: /^Reembolsar el pago / }).click();
    await expect(dialog).toContainText("Se puede reembolsar hasta $120.000");
    await expect(dialog.getByLabel("Monto a reembolsar (pesos)")).toHaveValue("120000");
    await admin.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await expect(async () => {
      await openPage(admin, `/admin/pagos?${new URLSearchParams({ q: patient.email })}`);
      await expect(row).toContainText("Reembolsado $50.000", { timeout: 1_000 });
      await expect(row).not.toContainText("en curso", { timeout: 1_000 });
      await expect(row).toContainText("Reembolsado parcialmente", { timeout: 1_000 });
    }, "the partial refund is done").toPass({ timeout: 45_000, intervals: [1_000, 2_000, 3_000] });
  } finally {
    await admin.context().close();
  }

  await openPage(page, "/paciente/pagos");
  const refund = movementRows(page, "Reembolso").filter({ hasText: `Abono: ${IMPLANT.name}` });
  await expect(refund).toContainText("$50.000");
  await expect(refund.getByText("Reembolsado", { exact: true })).toBeVisible();
  await expect(movementRows(page, "Pago").filter({ hasText: `Abono: ${IMPLANT.name}` })).toContainText(
    "Reembolsado parcialmente",
  );
});
