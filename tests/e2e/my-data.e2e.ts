import { expect, test } from "@playwright/test";
import {
  blockingViolations,
  createAccount,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  newAccount,
  newestMail,
  openPage,
  signInByRequest,
  signOutFromHeader,
  submitSignIn,
  useOwnClientIp,
} from "./support";

// Mis Datos (ADR 037), the rights of an account holder end to end: a patient who agreed to WhatsApp reminders in
// Mi Perfil withdraws that consent with one switch (also after a reload), then asks for erasure; the admin sees the
// request with its clock in /admin/privacidad and executes it; the patient can no longer sign in and receives the
// closing message with what was kept, why and until when. (The download of the data: privacy-export.e2e.ts.)

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("a patient withdraws a consent and asks for erasure on Mis Datos; the admin executes it; the account is closed", async ({
  page,
}) => {
  const account = newAccount("misdatos");
  await createAccount(page.context().request, account);

  // The consent is given where the product asks for it: Mi Perfil.
  await openPage(page, "/paciente/perfil");
  await page.getByLabel("Teléfono", { exact: true }).fill("9 8765 4321");
  await page
    .getByRole("checkbox", { name: "Recibir recordatorios y avisos de mis citas por WhatsApp" })
    .check();
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Tu información ha sido guardada correctamente")).toBeVisible();

  // The patient navigation leads to Mis Datos.
  await page.getByRole("link", { name: "Mis Datos" }).first().click();
  await page.waitForURL((url) => url.pathname === "/paciente/datos");
  await expect(page.getByRole("heading", { level: 1, name: "Mis Datos" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Mis consentimientos" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Descargar mis datos" })).toBeVisible();

  const consent = page.getByTestId("consent-recordatorios_whatsapp");
  const toggle = consent.getByRole("switch", { name: "Recordatorios y avisos de mis citas por WhatsApp" });
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(consent.getByTestId("consent-state")).toHaveText("Otorgado");
  await consent.getByText("Ver historial y textos aceptados").click();
  await expect(consent.getByText("Vigente · versión v1", { exact: false }).first()).toBeVisible();
  await expect(consent.getByText("(Mi Perfil)", { exact: false }).first()).toBeVisible();

  let { ids, report } = await blockingViolations(page);
  expect(ids, report).toEqual([]);

  await toggle.click();
  await expect(page.getByRole("status")).toHaveText(
    "Retiraste tu consentimiento: Recordatorios y avisos de mis citas por WhatsApp.",
  );
  await expect(consent.getByTestId("consent-state")).toHaveText("Retirado");
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  // Stored: a reload shows it withdrawn, with when and where.
  await page.reload();
  await expect(consent.getByTestId("consent-state")).toHaveText("Retirado");
  await consent.getByText("Ver historial y textos aceptados").click();
  await expect(consent.getByText("(Mis Datos)", { exact: false }).first()).toBeVisible();
  // Mi Perfil's checkbox follows the ledger.
  await openPage(page, "/paciente/perfil");
  await expect(
    page.getByRole("checkbox", { name: "Recibir recordatorios y avisos de mis citas por WhatsApp" }),
  ).not.toBeChecked();

  // Erasure, asked from Mis Datos: the explicit "Entiendo que…" is required.
  await openPage(page, "/paciente/datos");
  const panel = page.getByTestId("rights-request-panel");
  await panel.getByLabel("¿Qué quieres pedir?").selectOption("supresion");
  await panel.getByRole("checkbox", { name: /Entiendo que, si se aprueba, mi cuenta se cerrará/ }).check();
  await panel.getByRole("button", { name: "Enviar solicitud" }).click();
  const received = page.getByRole("status").filter({ hasText: "Recibimos tu solicitud" });
  await expect(received).toBeVisible();
  const reference = /N\.º ([0-9A-F]{8})/.exec(await received.innerText())?.[1];
  expect(reference).toBeTruthy();
  await expect(panel).toContainText("Supresión");
  ({ ids, report } = await blockingViolations(page));
  expect(ids, report).toEqual([]);
  await newestMail(page, account.email, /Recibimos tu solicitud/);

  // The admin sees it with its clock and executes it.
  await signOutFromHeader(page);
  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  await openPage(page, "/admin/privacidad");
  const row = page.getByTestId("privacy-queue").getByRole("row").filter({ hasText: reference! });
  await expect(row).toContainText(/3[01] días/);
  await row.getByRole("link", { name: /Supresión/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(reference!);
  await page.getByRole("button", { name: "Aprobar y ejecutar" }).click();
  await expect(page.getByRole("status").filter({ hasText: "aprobada" })).toBeVisible();
  await signOutFromHeader(page);

  // The account is closed: the password no longer opens it.
  await openPage(page, "/auth");
  await submitSignIn(page, account.email, account.password);
  await expect(page.getByRole("alert")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/auth");

  // The closing message says what was kept, why and until when.
  const closing = await newestMail(page, account.email, /Aprobamos tu solicitud de supresión/);
  expect(closing.text).toContain("Se conservan hasta el");
});
