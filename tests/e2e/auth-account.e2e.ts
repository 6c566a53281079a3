import { expect, test, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import {
  createAccount,
  newAccount,
  newestMail,
  openPage,
  signOutFromHeader,
  submitSignIn,
  useOwnClientIp,
} from "./support";

// Account upkeep: password recovery, e-mail verification, two-step verification. E-mails are read from the demo
// outbox at /dev/correos.

const INVALID_CREDENTIALS =
  "El correo o la contraseña que ingresaste no son correctos. Inténtalo nuevamente.";
const authAlert = (page: Page) => page.getByRole("main").getByRole("alert");

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("forgot password: the e-mailed link sets a new password; the old one stops working", async ({
  page,
  request,
}) => {
  const account = await createAccount(request, newAccount("recuperar"));
  const newPassword = "nueva-clave-2027";

  await openPage(page, "/auth");
  await page.getByRole("link", { name: "¿Olvidaste tu contraseña?" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/auth/recuperar");
  await page.getByLabel("Correo electrónico").fill(account.email);
  await page.getByRole("button", { name: "Enviar enlace" }).click();
  await expect(page.getByRole("status")).toContainText(
    "te enviamos un enlace para elegir una nueva contraseña",
  );

  const mail = await newestMail(page, account.email, /Restablece tu contraseña/);
  expect(mail.link, `a link in:\n${mail.text}`).toBeTruthy();
  await page.goto(mail.link!);
  await expect(page).toHaveURL(
    (url) => url.pathname === "/auth/restablecer" && url.searchParams.has("token"),
  );
  await expect(page.getByRole("heading", { level: 1, name: "Elige una nueva contraseña" })).toBeVisible();
  await page.getByLabel("Nueva contraseña").fill(newPassword);
  await page.getByLabel("Repite la contraseña").fill(newPassword);
  await page.getByRole("button", { name: "Guardar contraseña" }).click();
  await expect(page.getByRole("status")).toContainText("Tu contraseña fue cambiada");

  await openPage(page, "/auth");
  await submitSignIn(page, account.email, account.password);
  await expect(authAlert(page)).toContainText(INVALID_CREDENTIALS);

  await openPage(page, "/auth");
  await submitSignIn(page, account.email, newPassword);
  await page.waitForURL((url) => url.pathname === "/paciente");
  await expect(page.getByTestId("header-user-name")).toHaveText(account.firstName);
});

test("e-mail verification: the 'Confirma tu correo' link verifies the account and the banner goes away", async ({
  page,
  context,
}) => {
  const account = await createAccount(context.request, newAccount("verificar"));
  await openPage(page, "/paciente");
  const banner = page.getByRole("status").filter({ hasText: "Confirma tu correo" });
  await expect(banner).toBeVisible();

  const mail = await newestMail(page, account.email, /Confirma tu correo/);
  expect(mail.text).toContain(`Hola ${account.firstName}, confirma tu correo`);
  expect(mail.link, `a link in:\n${mail.text}`).toBeTruthy();
  const response = await page.goto(mail.link!);
  expect(response?.ok(), `following ${mail.link} answers ${response?.status()}`).toBe(true);

  await openPage(page, "/paciente");
  await expect(page.getByRole("heading", { level: 1, name: `Hola, ${account.firstName}` })).toBeVisible();
  await expect(banner).toHaveCount(0);
});

function totp(secret: string) {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    digits: 6,
    period: 30,
    algorithm: "SHA1",
  });
}

test("two-step verification: enrol with an authenticator code, then sign-in asks for the code", async ({
  page,
  context,
}) => {
  const account = await createAccount(context.request, newAccount("dos-pasos"));

  await openPage(page, "/cuenta/seguridad");
  await expect(page.getByRole("heading", { name: "Verificación en dos pasos: desactivada" })).toBeVisible();
  await page.getByLabel("Confirma con tu contraseña").fill(account.password);
  await page.getByRole("button", { name: "Activar verificación en dos pasos" }).click();

  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  expect(secret, "the secret is shown in base32, as authenticator apps expect").toMatch(/^[A-Z2-7]+=*$/);
  await expect(
    page.getByRole("img", { name: "Código QR para tu aplicación de autenticación" }),
  ).toBeVisible();
  const generator = totp(secret);
  await page.getByLabel("Código de 6 dígitos de tu aplicación").fill(generator.generate());
  await page.getByRole("button", { name: "Activar verificación en dos pasos" }).click();
  await expect(page.getByRole("status")).toContainText("La verificación en dos pasos quedó activada.");
  await expect(page.getByRole("heading", { name: "Verificación en dos pasos: activada" })).toBeVisible();

  await signOutFromHeader(page);
  await openPage(page, "/auth");
  await submitSignIn(page, account.email, account.password);
  await expect(page.getByRole("heading", { level: 1, name: "Verificación en dos pasos" })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === "/auth");
  const codeInput = page.getByLabel("Código de verificación");

  // A code that is valid in no nearby time step.
  const now = Date.now();
  const nearby = new Set([-1, 0, 1].map((step) => generator.generate({ timestamp: now + step * 30_000 })));
  let wrong = "123456";
  while (nearby.has(wrong)) wrong = String((Number(wrong) + 1) % 1_000_000).padStart(6, "0");
  await codeInput.fill(wrong);
  await page.getByRole("button", { name: "Verificar", exact: true }).click();
  await expect(authAlert(page)).toContainText("El código no es válido. Inténtalo nuevamente.");
  await expect(page.getByRole("heading", { level: 1, name: "Verificación en dos pasos" })).toBeVisible();

  await codeInput.fill(generator.generate());
  await page.getByRole("button", { name: "Verificar", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/paciente");
  await expect(page.getByTestId("header-user-name")).toHaveText(account.firstName);
});
