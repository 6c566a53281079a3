import { expect, test, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import {
  createAccount,
  newAccount,
  newestMail,
  openPage,
  signOutFromHeader,
  uniqueEmail,
  useOwnClientIp,
} from "./support";

// "Continuar con Google" through the popup (ADR 004), against demo mode's own OpenID provider, the "Google
// (demostración)" the server mounts at /google-demo (app/integrations/google/oidc-fake.mjs) in Google's place.

const OIDC_PATH = "/google-demo/interaction/";

/** Every Google-related text of the catalogue (auth-messages), both languages. */
const GOOGLE_ERRORS = [
  "No se pudo iniciar sesión con Google",
  "Falló la autenticación con Google",
  "Falló la verificación final de la autenticación",
  "Failed to sign in with Google",
  "OAuth authentication failed",
  "Final authentication check failed",
];

const authAlert = (page: Page) => page.getByRole("main").getByRole("alert");

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

/** Clicks 'Continuar con Google' (or its English label) and returns the popup, on the provider's login page. */
async function openGooglePopup(page: Page, label = "Continuar con Google (demostración)") {
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("link", { name: label }).click();
  const popup = await popupOpened;
  await popup.waitForURL(
    (url) => url.origin === new URL(page.url()).origin && url.pathname.startsWith(OIDC_PATH),
  );
  await expect(popup.getByRole("textbox", { name: "Correo" })).toBeVisible();
  return popup;
}

async function fillProvider(popup: Page, person: { email: string; firstName: string; lastName: string }) {
  await popup.getByRole("textbox", { name: "Correo" }).fill(person.email);
  await popup.getByRole("textbox", { name: "Nombre" }).fill(person.firstName);
  await popup.getByRole("textbox", { name: "Apellido" }).fill(person.lastName);
}

/**
 * ADR 004: once settled, the popup is closed (by the callback page itself, or by the opener). A popup left open
 * shows where it went instead.
 */
async function expectPopupClosed(popup: Page) {
  await expect
    .poll(() => (popup.isClosed() ? "closed" : `still open on ${popup.url()}`), {
      message: "the Google popup closes once the flow has settled",
      timeout: 3_000,
    })
    .toBe("closed");
}

/** The opener's `window.open` calls, recorded without changing them. */
async function recordWindowOpen(page: Page) {
  await page.addInitScript(() => {
    const calls: Array<{ url: string; target: string; features: string }> = [];
    (window as unknown as { __openCalls: typeof calls }).__openCalls = calls;
    const original = window.open.bind(window);
    window.open = (url?: string | URL, target?: string, features?: string) => {
      calls.push({ url: String(url ?? ""), target: target ?? "", features: features ?? "" });
      return original(url, target, features);
    };
  });
  return () =>
    page.evaluate(() => (window as unknown as { __openCalls: Array<Record<string, string>> }).__openCalls);
}

test("Google: a 500×600 popup on the provider; on success it closes and the opener lands on /paciente", async ({
  page,
}) => {
  const openCalls = await recordWindowOpen(page);
  await openPage(page, "/auth");
  const popup = await openGooglePopup(page);

  // The popup was asked for 500×600 and got that size.
  const [call] = await openCalls();
  expect(call?.url).toMatch(/^\/auth\/google\?(.*&)?popup=1/);
  expect(call?.features).toMatch(/(^|,)width=500(,|$)/);
  expect(call?.features).toMatch(/(^|,)height=600(,|$)/);
  const size = await popup.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
  expect(size, "the popup's size").toEqual({ width: 500, height: 600 });

  const person = { email: uniqueEmail("google"), firstName: "Ignacio", lastName: "Fuentes" };
  await fillProvider(popup, person);
  await popup.getByRole("button", { name: "Continuar" }).click();

  await expect(page).toHaveURL((url) => url.pathname === "/paciente");
  await expect(page.getByTestId("header-user-name")).toHaveText("Ignacio");
  await expectPopupClosed(popup);
});

test("Google: 'Cancelar' in the popup → 'Se canceló la autenticación' (and in English)", async ({ page }) => {
  for (const [path, label, message] of [
    ["/auth", "Continuar con Google", "Se canceló la autenticación"],
    ["/auth?lang=en", "Continue with Google (demo)", "Authentication was cancelled"],
  ] as const) {
    await openPage(page, path);
    const popup = await openGooglePopup(page, label);
    await popup.getByRole("button", { name: "Cancelar" }).click();
    await expect(authAlert(page)).toContainText(message);
    await expect(page).toHaveURL((url) => url.pathname === "/auth");
    // The button is usable again.
    await expect(page.getByRole("link", { name: label })).not.toHaveAttribute("aria-disabled", "true");
    await expectPopupClosed(popup);
  }
});

test("Google: closing the popup without finishing → 'Se canceló la autenticación' after the poll", async ({
  page,
}) => {
  await openPage(page, "/auth");
  const popup = await openGooglePopup(page);
  await expect(page.getByRole("link", { name: "Continuar con Google" })).toHaveAttribute(
    "aria-disabled",
    "true",
  );
  const stateCheck = page.waitForRequest((request) => new URL(request.url()).pathname === "/auth/estado");
  await popup.close();
  // The opener notices within its 1 s poll, asks the server once, and reports the cancellation.
  await stateCheck;
  await expect(authAlert(page)).toContainText("Se canceló la autenticación", { timeout: 3_000 });
  await expect(page).toHaveURL((url) => url.pathname === "/auth");
  await expect(page.getByRole("link", { name: "Continuar con Google" })).not.toHaveAttribute(
    "aria-disabled",
    "true",
  );
});

test("Google with the e-mail of an unverified existing account: a catalogue error and no session", async ({
  page,
  request,
}) => {
  const existing = await createAccount(request, newAccount("sin-verificar"));

  await openPage(page, "/auth");
  const popup = await openGooglePopup(page);
  await fillProvider(popup, { email: existing.email, firstName: "Intruso", lastName: "Google" });
  await expect(popup.getByRole("checkbox", { name: "Correo verificado" })).toBeChecked();
  await popup.getByRole("button", { name: "Continuar" }).click();

  const alert = authAlert(page);
  await expect(alert).toBeVisible();
  const shown = await alert.innerText();
  expect(
    GOOGLE_ERRORS.some((text) => shown.includes(text)),
    `"${shown}" should be one of the catalogue's Google errors`,
  ).toBe(true);
  await expect(page).toHaveURL((url) => url.pathname === "/auth");

  await expectPopupClosed(popup);
  await page.goto("/paciente");
  await expect(page).toHaveURL((url) => url.pathname === "/auth" && url.search === "?redirectTo=%2Fpaciente");
});

test("Google: a blocked popup → 'La ventana emergente fue bloqueada…'", async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await openPage(page, "/auth");
  let popups = 0;
  page.on("popup", () => {
    popups += 1;
  });
  await page.getByRole("link", { name: "Continuar con Google" }).click();
  await expect(authAlert(page)).toContainText(
    "La ventana emergente fue bloqueada. Permite las ventanas emergentes e inténtalo nuevamente.",
  );
  await expect(page).toHaveURL((url) => url.pathname === "/auth");
  expect(popups).toBe(0);
});

test("Google to an account with two-step verification: the popup closes and the opener asks for the code first", async ({
  page,
  context,
}) => {
  // A patient with a verified e-mail (Google links only to verified accounts) and two-step verification on.
  const account = await createAccount(context.request, newAccount("google-2fa"));
  const mail = await newestMail(page, account.email, /Confirma tu correo/);
  await page.goto(mail.link!);
  await openPage(page, "/cuenta/seguridad");
  await page.getByLabel("Confirma con tu contraseña").fill(account.password);
  await page.getByRole("button", { name: "Activar verificación en dos pasos" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  const generator = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  await page.getByLabel("Código de 6 dígitos de tu aplicación").fill(generator.generate());
  await page.getByRole("button", { name: "Activar verificación en dos pasos" }).click();
  await expect(page.getByRole("status")).toContainText("La verificación en dos pasos quedó activada.");
  await signOutFromHeader(page);

  await openPage(page, "/auth");
  const popup = await openGooglePopup(page);
  await fillProvider(popup, {
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
  });
  await popup.getByRole("button", { name: "Continuar" }).click();

  // No session yet: the code step of /auth, not the patient area.
  await expect(page).toHaveURL((url) => url.pathname === "/auth" && url.searchParams.get("paso") === "2fa");
  await expectPopupClosed(popup);
  await expect(page.getByRole("heading", { level: 1, name: "Verificación en dos pasos" })).toBeVisible();
  const stillOut = await page.request.get("/auth/estado", { headers: { accept: "application/json" } });
  expect(await stillOut.json()).toEqual({ signedIn: false });

  await page.getByLabel("Código de verificación").fill(generator.generate());
  await page.getByRole("button", { name: "Verificar", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/paciente");
  await expect(page.getByTestId("header-user-name")).toHaveText(account.firstName);
});

test("Google (demostración): the demo's provider offers the demo identities; one click signs the demo dentist in", async ({
  page,
}) => {
  await openPage(page, "/auth");
  const popup = await openGooglePopup(page);
  await expect(popup.getByRole("heading", { level: 1, name: "Google (demostración)" })).toBeVisible();
  await expect(popup.getByText("Este proveedor de demostración reemplaza a Google")).toBeVisible();
  const identities = popup.getByRole("list").getByRole("button");
  await expect(identities).toHaveCount(5);
  await identities.filter({ hasText: "dentista@clinica.example" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/dentista");
  await expectPopupClosed(popup);
});
