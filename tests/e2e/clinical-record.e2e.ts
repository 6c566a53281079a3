import { expect, test } from "@playwright/test";
import {
  blockingViolations,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  DEMO_PATIENT,
  newestMail,
  openPage,
  randomClientIp,
  signInByRequest,
  useOwnClientIp,
} from "./support";

// The RUT portal (ADR 021) on the demo data: the demo patient binds the record of RUT 12.345.678-5 with the code
// e-mailed to the address the (mock) Dentalink has on file, reads the five tabs and a document; then a dentist opens
// the same record with a reason and an admin finds both reads in /admin/auditoria. Serial: the second test reads
// what the first one did.

const DEMO_DENTIST = "dentista@clinica.example";

test.describe.configure({ mode: "serial" });

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("the demo patient binds the record with the e-mailed code, reads the five tabs and a document", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signInByRequest(page, DEMO_PATIENT, DEMO_PASSWORD);
  await openPage(page, "/paciente");
  await page.getByRole("link", { name: "Mi Ficha" }).first().click();
  await expect(page.getByRole("heading", { name: "Acceso a Portal Paciente" })).toBeVisible();
  await expect(page).toHaveURL(/\/paciente\/ficha$/);
  let { ids, report } = await blockingViolations(page);
  expect(ids, `axe on the RUT view:\n${report}`).toEqual([]);

  const rut = page.getByLabel("RUT");
  const submit = page.getByRole("button", { name: "Continuar" });
  const invalid: Array<[string, string]> = [
    ["", "Por favor ingresa tu RUT"],
    ["1234567", "El RUT debe tener entre 8 y 9 caracteres"],
    ["1234567K5", "El cuerpo del RUT debe ser numérico"],
    ["123456784", "El RUT ingresado no es válido"],
  ];
  for (const [typed, message] of invalid) {
    await rut.fill("");
    if (typed) await rut.pressSequentially(typed);
    await submit.click();
    await expect(page.getByText(message)).toBeVisible();
  }
  // The field keeps only digits and K, so a wrong check digit can only come from outside the page: the server
  // answers it with the same message.
  const posted = await page.request.post("/paciente/ficha", {
    form: { intent: "rut", rut: "12345678-X" },
    headers: { "x-forwarded-for": randomClientIp() },
  });
  expect(posted.status()).toBe(400);
  expect(await posted.text()).toContain("El dígito verificador debe ser un número o K");

  await rut.fill("");
  await rut.pressSequentially("123456785");
  await expect(rut).toHaveValue("12.345.678-5");
  await submit.click();
  await expect(
    page.getByText(
      "Si el RUT está registrado en la clínica, enviamos un código de 6 dígitos al teléfono o correo que la clínica tiene registrado.",
    ),
  ).toBeVisible({ timeout: 15_000 });
  const { text } = await newestMail(page, DEMO_PATIENT, /Código de acceso/);
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  expect(code, "the code in the e-mail").toBeTruthy();
  await page.getByLabel("Código de 6 dígitos").fill(code!);
  await page.getByRole("button", { name: "Verificar código" }).click();

  await expect(page.getByRole("heading", { name: "Portal Paciente", exact: true })).toBeVisible({
    timeout: 20_000,
  });
  const tabs = page.getByRole("tablist", { name: "Secciones de la ficha" });
  await expect(page.getByRole("tabpanel")).toContainText("Limpieza dental");
  await tabs.getByRole("tab", { name: "Pagos" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("$360.000");
  await tabs.getByRole("tab", { name: "Tratamientos" }).click();
  await expect(
    page.getByRole("progressbar", { name: "Progreso de Ortodoncia con brackets" }),
  ).toHaveAttribute("aria-valuenow", "40");
  await tabs.getByRole("tab", { name: "Radiografías" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("Panorámica inicial.png");
  await tabs.getByRole("tab", { name: "Documentos" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("Consentimiento informado ortodoncia.pdf");
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on the dashboard:\n${report}`).toEqual([]);

  // 'Ver' opens the document in a new tab, through our server.
  const view = page.getByRole("link", { name: /^Ver Consentimiento informado ortodoncia\.pdf/ });
  const href = await view.getAttribute("href");
  expect(href).toBe("/paciente/ficha/archivo/9001");
  const [popup] = await Promise.all([context.waitForEvent("page"), view.click()]);
  await expect.poll(() => popup.url()).toContain("/paciente/ficha/archivo/9001");
  await popup.close();
  const pdf = await page.request.get(href!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(pdf.headers()["cache-control"]).toBe("no-store");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

  // 'Cerrar Sesión' closes the record on the server: the account's password (or a new code) reopens it.
  await page.getByRole("button", { name: "Cerrar Sesión" }).click();
  await expect(page.getByRole("heading", { name: "Acceso a Portal Paciente" })).toBeVisible();
  await expect(page.getByText("Cerraste tu ficha clínica.")).toBeVisible();
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on the closed view:\n${report}`).toEqual([]);
  expect((await page.request.get(href!)).status()).toBe(404);
  await page.getByLabel("Contraseña de tu cuenta").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Abrir mi ficha" }).click();
  await expect(page.getByRole("heading", { name: "Portal Paciente", exact: true })).toBeVisible({
    timeout: 20_000,
  });
});

test("a dentist opens the record with a reason; the admin finds both reads in /admin/auditoria", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInByRequest(page, DEMO_DENTIST, DEMO_PASSWORD);
  await openPage(page, "/dentista/ficha");
  await page.getByLabel("RUT del paciente").pressSequentially("123456785");
  await page.getByLabel("Motivo del acceso").fill("Control de ortodoncia de la paciente");
  await page.getByRole("button", { name: "Abrir ficha" }).click();
  const record = page.getByRole("region", { name: "Ficha del paciente" });
  await expect(record).toContainText("Catalina Soto", { timeout: 20_000 });
  await expect(record.getByRole("tabpanel")).toContainText("Limpieza dental");
  const { ids, report } = await blockingViolations(page);
  expect(ids, `axe on /dentista/ficha:\n${report}`).toEqual([]);

  const admin = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const signIn = await admin.request.post("/auth", {
      form: { intent: "signin", email: DEMO_ADMIN, password: DEMO_PASSWORD },
      headers: { "x-forwarded-for": randomClientIp() },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(302);
    const audit = await admin.newPage();
    await openPage(audit, "/admin/auditoria");
    await audit.getByLabel("Filtrar por RUT del paciente").fill("12.345.678-5");
    await audit.getByRole("button", { name: "Filtrar" }).click();
    await expect(audit).toHaveURL(/rut=12\.345\.678-5/);
    const table = audit.getByTestId("record-access-table");
    await expect(table.getByRole("row").filter({ hasText: "Andrés Morales" }).first()).toContainText(
      "Control de ortodoncia de la paciente",
    );
    // The patient's own reads from the first test, under her name and role.
    await expect(table.getByRole("row").filter({ hasText: "Catalina Soto" }).first()).toContainText(
      "Paciente",
    );
  } finally {
    await admin.close();
  }
});

test("the demo patient pays part of a budget's balance from the Pagos tab; the admin sees it to record at Dentalink", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The first test left the record open for the demo account.
  await signInByRequest(page, DEMO_PATIENT, DEMO_PASSWORD);
  await openPage(page, "/paciente/ficha");
  const tabs = page.getByRole("tablist", { name: "Secciones de la ficha" });
  await tabs.getByRole("tab", { name: "Pagos" }).click();
  const budget = page.getByRole("form", { name: "Pagar saldo de Ortodoncia con brackets" });
  await expect(page.getByRole("tabpanel")).toContainText("Saldo pendiente: $120.000", { timeout: 20_000 });
  const amount = budget.getByLabel("Monto a pagar (en pesos)");
  await expect(amount).toHaveValue("120.000");
  const { ids, report } = await blockingViolations(page);
  expect(ids, `axe on the Pagos tab:\n${report}`).toEqual([]);

  await amount.fill("20.000");
  await budget.getByRole("button", { name: "Pagar saldo" }).click();
  // Webpay's form (the fake): the approved test card, then back to the clinic.
  await page.getByLabel("Número de tarjeta").fill("4051885600446623");
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/paciente\/pagos\/resultado\//, { timeout: 30_000 });
  await expect(page.getByRole("main")).toContainText("Saldo de presupuesto: Ortodoncia con brackets");

  // Dentalink does not know of it yet: Mi Ficha takes it off the balance and says so.
  await openPage(page, "/paciente/ficha");
  await tabs.getByRole("tab", { name: "Pagos" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("Saldo pendiente: $100.000", { timeout: 20_000 });
  await expect(page.getByRole("tabpanel")).toContainText(
    "Pagado en línea y aún no registrado en tu ficha: $20.000",
  );

  const admin = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const signIn = await admin.request.post("/auth", {
      form: { intent: "signin", email: DEMO_ADMIN, password: DEMO_PASSWORD },
      headers: { "x-forwarded-for": randomClientIp() },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(302);
    const staff = await admin.newPage();
    await openPage(staff, "/admin/pagos");
    // The section and its scrollable table are both named after the heading.
    const balances = staff.getByRole("region", { name: "Pagos de saldo por registrar en Dentalink" }).first();
    await expect(balances).toContainText("Saldo de presupuesto: Ortodoncia con brackets");
    await expect(balances).toContainText("$20.000");
  } finally {
    await admin.close();
  }
});
