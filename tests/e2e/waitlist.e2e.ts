import { expect, type Locator, type Page } from "@playwright/test";
import {
  blockingViolations,
  createAccount,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  newAccount,
  newestMail,
  openPage,
  signInByRequest,
  testWithMailReader,
  useOwnClientIp,
} from "./support";

// ADR 040: patient A joins the waitlist from Mis Citas; patient B books and cancels a matching appointment; the
// waitlist job (every 20 s on the server, first pass at start) offers the freed slot; A opens the offer's link from
// the e-mail (the demo's /dev/correos: A gave no phone, so no WhatsApp) and claims it.

const test = testWithMailReader;

async function expectNoBlockingViolations(page: Page) {
  const { ids, report } = await blockingViolations(page);
  expect(ids, report).toEqual([]);
}

/** A fresh patient who confirmed their e-mail (booking needs it), signed in in `page`'s context. */
async function verifiedPatient(page: Page, mailReader: Page, prefix: string) {
  const account = await createAccount(page.context().request, newAccount(prefix));
  const mail = await newestMail(mailReader, account.email, /Confirma tu correo/);
  const confirmed = await page.goto(mail.link!);
  expect(confirmed?.ok()).toBe(true);
  return account;
}

/** Books a Consulta with any dentist on one of the later open days, at its first free time. */
async function bookConsulta(page: Page) {
  await openPage(page, "/paciente/citas");
  await page.getByRole("button", { name: "Agendar Nueva Cita" }).click();
  const dialog = page.getByRole("dialog", { name: "Agendar nueva cita" });
  await dialog.getByRole("radio", { name: /^Consulta y evaluación/ }).check();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  const days = dialog.getByTestId("day-options").getByRole("button");
  const day = days.nth(3 + Math.floor(Math.random() * 8));
  const label = (await day.getAttribute("data-label"))!;
  await day.click();
  const times = dialog.getByTestId("time-options").getByRole("button");
  await expect(times.first()).toBeVisible();
  const time = (await times.first().innerText()).trim();
  await times.first().click();
  await dialog.getByRole("button", { name: "Confirmar cita" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/quedó agendada para el/)).toBeVisible();
  return { label, time };
}

async function cancelOnly(page: Page, card: Locator) {
  await card.getByRole("button", { name: "Cancelar" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancelar cita" });
  await dialog.getByRole("button", { name: "Sí, cancelar cita" }).click();
  await expect(page.getByText("Tu cita fue cancelada sin costo.")).toBeVisible();
}

/** Polls /dev/correos for the offer of this slot to `to` (the job runs every 20 s); answers its link. */
async function offerLink(mailReader: Page, to: string, slot: { label: string; time: string }) {
  // "Lunes, 30 de noviembre de 2026" → the day and month, as the e-mail writes them.
  const dayAndMonth = /\d{1,2} de [a-záéíóú]+/i.exec(slot.label)![0];
  let link: string | undefined;
  await expect(async () => {
    await mailReader.goto("/dev/correos");
    const mail = mailReader
      .getByTestId("dev-mail")
      .filter({ hasText: to })
      .filter({ hasText: "Se liberó una hora" })
      .filter({ hasText: dayAndMonth })
      .filter({ hasText: `a las ${slot.time}` });
    const text = await mail.first().innerText({ timeout: 1_000 });
    link = /https?:\/\/\S+\/lista-de-espera\/oferta\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
    expect(link).toBeTruthy();
  }, `the waitlist offer to ${to} in /dev/correos`).toPass({ timeout: 60_000, intervals: [2_000] });
  return link!;
}

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("join the waitlist, another patient frees a slot, claim it from the offer's link", async ({
  browser,
  page,
  mailReader,
}) => {
  test.slow();
  // Patient A joins from Mis Citas.
  const a = await verifiedPatient(page, mailReader, "espera");
  await openPage(page, "/paciente/citas");
  await page.getByRole("link", { name: "Avísame si se libera una hora antes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Lista de espera" })).toBeVisible();
  await expectNoBlockingViolations(page);
  // A date in the past is refused in the browser, before anything is sent.
  await page.getByLabel("Tratamiento").selectOption({ label: "Consulta y evaluación" });
  await page.getByLabel("Avísame hasta el").fill("2020-01-01");
  await page.getByRole("button", { name: "Unirme a la lista de espera" }).click();
  await expect(page.getByText("La fecha límite no puede ser anterior a hoy.")).toBeVisible();
  const until = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Avísame hasta el").fill(until);
  await page.getByRole("button", { name: "Unirme a la lista de espera" }).click();
  await expect(page.getByTestId("waitlist-message")).toHaveText(
    "Listo: te avisaremos si se libera una hora que te acomode.",
  );
  await expect(page.getByTestId("waitlist-entry")).toHaveCount(1);
  await expect(page.getByTestId("waitlist-entry-status")).toHaveText("Activa");

  // Patient B books a Consulta and cancels it: the slot is freed.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await useOwnClientIp(other);
  const bPage = await other.newPage();
  await verifiedPatient(bPage, mailReader, "libera");
  const slot = await bookConsulta(bPage);
  await cancelOnly(bPage, bPage.getByTestId("panel-upcoming").getByTestId("appointment-card").first());
  await other.close();

  // The job offers it; A opens the link and takes it.
  const link = await offerLink(mailReader, a.email, slot);
  const path = new URL(link).pathname;
  await openPage(page, path);
  await expect(page.getByRole("heading", { level: 1, name: "Se liberó una hora para ti" })).toBeVisible();
  await expect(page.getByTestId("offer-slot")).toContainText("Consulta y evaluación");
  await expect(page.getByTestId("offer-slot")).toContainText(slot.time);
  await expectNoBlockingViolations(page);
  await page.getByRole("button", { name: "Tomar esta hora" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "¡Listo! La hora es tuya" })).toBeVisible();
  await expectNoBlockingViolations(page);

  // The booking is A's; the entry is fulfilled.
  await openPage(page, "/paciente/citas");
  await expect(
    page.getByTestId("panel-upcoming").getByTestId("appointment-card").filter({ hasText: slot.time }),
  ).toHaveCount(1);
  await openPage(page, "/paciente/lista-de-espera");
  await expect(page.getByTestId("waitlist-entry-status")).toHaveText("Cumplida");
});

test("a forged offer link answers a Spanish 404 page", async ({ page }) => {
  const response = await page.goto(`/lista-de-espera/oferta/${"A".repeat(43)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Enlace no válido" })).toBeVisible();
});

test("staff: the dentist's day view and the admin's waitlist page are axe-clean", async ({ page }) => {
  test.slow();
  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  await openPage(page, "/admin/lista-de-espera");
  await expect(page.getByRole("heading", { level: 1, name: "Lista de espera" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Ofrecer esta hora" })).toBeVisible();
  await expectNoBlockingViolations(page);

  await page.context().clearCookies();
  await signInByRequest(page, "dentista@clinica.example", DEMO_PASSWORD);
  await openPage(page, "/dentista");
  await expect(page.getByRole("heading", { level: 2, name: "Lista de espera" })).toBeVisible();
  await expectNoBlockingViolations(page);
});
