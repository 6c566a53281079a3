import { expect, type Locator, type Page } from "@playwright/test";
import {
  blockingViolations,
  createAccount,
  DEMO_PASSWORD,
  holdScripts,
  newAccount,
  newestMail,
  openPage,
  signInByRequest,
  testWithMailReader,
  useOwnClientIp,
  waitForHydration,
} from "./support";

// Intake and consent forms (ADR 041): a new patient books an aesthetic treatment with the demo dentist and pays its
// deposit, fills the health history on a phone (saving a draft and resuming it), signs the consent by drawing on the
// pad, and the dentist reads the answers from the day view. Every page axe-clean.

const DEMO_DENTIST = "dentista@clinica.example";
const APPROVED_CARD = "4051 8856 0044 6623";

const test = testWithMailReader;

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

async function expectNoAxeViolations(page: Page, what: string) {
  const { ids, report } = await blockingViolations(page);
  expect(ids, `axe on ${what}:\n${report}`).toEqual([]);
}

/** Books 'Estética dental' with the demo dentist on the second offered day, a random free time, and pays the deposit. */
async function bookAestheticWithDemoDentist(page: Page) {
  await openPage(page, "/paciente/citas");
  await page.getByRole("button", { name: "Agendar Nueva Cita" }).click();
  const dialog = page.getByRole("dialog", { name: "Agendar nueva cita" });
  await dialog.getByRole("radio", { name: /^Estética dental/ }).check();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await dialog.getByRole("radio", { name: /Andrés Morales/ }).check();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await expect(dialog.getByRole("heading", { name: "Paso 3 de 5: Fecha" })).toBeVisible();
  // An early day, inside the dentist's 7-day view, where the forms panel lists it.
  await dialog.getByTestId("day-options").getByRole("button").nth(1).click();
  const times = dialog.getByTestId("time-options").getByRole("button");
  await expect(times.first()).toBeVisible();
  const count = await times.count();
  await times.nth(Math.floor(Math.random() * count)).click();
  await expect(dialog.getByRole("heading", { name: "Paso 5 de 5: Confirmar" })).toBeVisible();
  await dialog.getByRole("button", { name: "Pagar abono con Webpay" }).click();
  await page.waitForURL((url) => url.pathname !== "/paciente/citas", { timeout: 20_000 });
  await page.getByLabel("Número de tarjeta").fill(APPROVED_CARD);
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/paciente/pagos/resultado/"), { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1, name: "¡Pago aprobado!" })).toBeVisible();
}

const question = (page: Page, name: string | RegExp) => page.getByRole("group", { name });

async function answer(group: Locator, option: string) {
  await group.getByRole("radio", { name: option, exact: true }).check();
}

/** Draws a stroke across the signature canvas with the mouse. */
async function drawSignature(page: Page) {
  const canvas = page.getByRole("img", { name: "Firma" });
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error("the signature canvas is not visible");
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= 20; step++) {
    await page.mouse.move(box.x + 20 + step * 12, box.y + box.height / 2 + (step % 2 === 0 ? -25 : 25), {
      steps: 2,
    });
  }
  await page.mouse.up();
}

test("a new patient fills the health history on a phone, signs the consent, and the dentist reads the answers", async ({
  page,
  browser,
  mailReader,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 375, height: 812 });
  const account = await createAccount(page.context().request, newAccount("formularios"));
  const mail = await newestMail(mailReader, account.email, /Confirma tu correo/);
  await page.goto(mail.link!);
  await bookAestheticWithDemoDentist(page);

  // Mi Portal says what is missing and links to it.
  await openPage(page, "/paciente");
  const notice = page.getByTestId("pending-forms");
  await expect(notice).toContainText("Tienes 2 formularios por completar");
  await notice.getByRole("link", { name: "Completar formularios" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Mis formularios" })).toBeVisible();
  await waitForHydration(page);
  await expectNoAxeViolations(page, "/paciente/formularios");

  // The health history: a first answer, a condition, then 'Guardar y continuar después'.
  await page.getByRole("link", { name: "Completar Antecedentes de salud" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Antecedentes de salud" })).toBeVisible();
  await waitForHydration(page);
  const meds = question(page, /¿Toma algún medicamento en forma habitual\?/);
  await expect(page.getByLabel("¿Cuáles? Indique el nombre y la dosis de cada uno.")).toHaveCount(0);
  await answer(meds, "Sí");
  await page.getByLabel(/¿Cuáles\? Indique el nombre y la dosis/).fill("Metformina 850 mg cada 12 horas");
  await expectNoAxeViolations(page, "the health history form");
  await page.getByRole("button", { name: "Guardar y continuar después" }).click();
  await expect(page.getByTestId("draft-saved")).toContainText("Borrador guardado");

  // Resume: a fresh load brings the draft back. What is typed and chosen before the page hydrates (a slow phone:
  // its scripts held back) stays through hydration and the renders after it.
  const hydrate = await holdScripts(page);
  await page.reload({ waitUntil: "commit" });
  await page.getByLabel("Nombre y apellido").fill("Rosa Pérez");
  await answer(question(page, /presión arterial alta/), "No");
  await hydrate();
  await answer(question(page, /enfermedad del corazón/), "No");
  await expect(page.getByLabel("Nombre y apellido")).toHaveValue("Rosa Pérez");
  await expect(
    question(page, /presión arterial alta/).getByRole("radio", { name: "No", exact: true }),
  ).toBeChecked();
  await expect(page.getByLabel(/¿Cuáles\? Indique el nombre y la dosis/)).toHaveValue(
    "Metformina 850 mg cada 12 horas",
  );
  await expect(meds.getByRole("radio", { name: "Sí", exact: true })).toBeChecked();

  // Submitting with answers missing is refused in the browser, with the field's message.
  await page.getByRole("button", { name: "Enviar formulario" }).click();
  await expect(page.getByRole("alert").first()).toContainText("respuestas por revisar");
  await expect(question(page, /¿Tiene diabetes\?/)).toContainText("Responde esta pregunta.");

  for (const label of [
    /presión arterial alta/,
    /enfermedad del corazón/,
    /¿Tiene diabetes\?/,
    /trastorno de la coagulación/,
    /enfermedad respiratoria/,
    /enfermedad infecciosa/,
    /epilepsia/,
    /osteoporosis/,
    /otra enfermedad o condición/,
    /anticoagulante o antiagregante/,
    /¿Es alérgico/,
    /¿Está embarazada/,
    /¿Está amamantando\?/,
    /problema con la anestesia/,
  ]) {
    await answer(question(page, label), "No");
  }
  await answer(question(page, /¿Tiene diabetes\?/), "Sí");
  await page.getByLabel("Nombre y apellido").fill("Rosa Pérez");
  await page.getByLabel(/Relación con usted/).fill("Madre");
  await page.getByLabel("Teléfono").fill("+56 9 8765 4321");
  await answer(question(page, /Declaro que la información entregada es verdadera/), "Sí");
  await page.getByRole("button", { name: "Enviar formulario" }).click();
  await page.waitForURL((url) => url.pathname === "/paciente/formularios" && url.search === "?enviado=1");
  await expect(page.getByRole("status")).toContainText("Recibimos su formulario");

  // The consent: the procedure, the declarations, name and RUT typed, and a drawn signature.
  await waitForHydration(page);
  await page.getByRole("link", { name: /^Completar Consentimiento informado/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Consentimiento informado/ })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByText(/revocar este consentimiento en cualquier momento/)).toBeVisible();
  await answer(question(page, /Procedimiento que se le realizará/), "Toxina botulínica");
  await answer(question(page, /He leído esta información/), "Sí");
  await answer(question(page, /Acepto en forma libre y voluntaria/), "Sí");
  await page.getByLabel("Nombre completo").fill(`${account.firstName} ${account.lastName}`);
  await page.getByLabel("RUT").fill("12.345.678-5");
  // Without a signature the form is not sent.
  await page.getByRole("button", { name: "Enviar formulario" }).click();
  await expect(page.getByText("Firma en el recuadro con el dedo o el mouse.")).toBeVisible();
  await drawSignature(page);
  await expect(page.getByText("Firma registrada.")).toBeVisible();
  // 'Borrar firma' clears it; drawing again signs.
  await page.getByRole("button", { name: "Borrar firma" }).click();
  await expect(page.getByText("Aún no ha firmado.")).toBeVisible();
  await drawSignature(page);
  await expect(page.getByText("Firma registrada.")).toBeVisible();
  await expectNoAxeViolations(page, "the consent form");
  await page.getByRole("button", { name: "Enviar formulario" }).click();
  await page.waitForURL((url) => url.pathname === "/paciente/formularios" && url.search === "?enviado=1");
  await expect(page.getByTestId("forms-none-pending")).toBeVisible();

  // The signed PDF downloads.
  const pdfLink = page.getByRole("link", { name: /^Descargar PDF de Consentimiento informado/ });
  const pdf = await page.context().request.get((await pdfLink.getAttribute("href"))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");

  // The dentist sees the forms on the day view and reads the answers.
  const dentistContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await useOwnClientIp(dentistContext);
  const dentist = await dentistContext.newPage();
  await signInByRequest(dentist, DEMO_DENTIST, DEMO_PASSWORD);
  await openPage(dentist, "/dentista");
  const panel = dentist.getByTestId("dentist-forms");
  const patientName = `${account.firstName} ${account.lastName}`;
  await panel
    .getByRole("link", { name: `Antecedentes de salud de ${patientName}` })
    .first()
    .click();
  await expect(dentist.getByRole("heading", { level: 1, name: "Antecedentes de salud" })).toBeVisible();
  await expect(dentist.getByText("Metformina 850 mg cada 12 horas")).toBeVisible();
  await expect(dentist.getByText("+56 9 8765 4321")).toBeVisible();
  await expectNoAxeViolations(dentist, "/dentista/formularios/:id");
  await dentistContext.close();
});
