import { expect, test } from "@playwright/test";
import {
  blockingViolations,
  createAccount,
  newAccount,
  newestMail,
  openPage,
  randomClientIp,
  submitSignIn,
  useOwnClientIp,
} from "./support";

// ADR 031: a spray of wrong passwords from many addresses does not lock the owner out; past the
// per-account limit the right password asks for a code e-mailed to the owner, typed on /auth.

test("past the per-account limit the owner signs in with the code from the e-mail", async ({
  page,
  context,
  request,
  playwright,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount(request, newAccount("escalon"));
  // The attacker (without the owner's cookies): 100 wrong passwords, each from another address, so under every
  // per-address limit.
  const attacker = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  for (let attempt = 1; attempt <= 100; attempt++) {
    const response = await attacker.post("/auth", {
      form: { intent: "signin", email: account.email, password: `adivinanza-${attempt}` },
      headers: { "x-forwarded-for": randomClientIp() },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(401);
  }
  await attacker.dispose();

  await useOwnClientIp(context);
  await openPage(page, "/auth");
  await submitSignIn(page, account.email, account.password);
  await expect(page.getByRole("heading", { level: 1, name: "Confirma que eres tú" })).toBeVisible();
  await expect(
    page.getByText("Si la contraseña que ingresaste es correcta, enviamos un código"),
  ).toBeVisible();
  const { ids, report } = await blockingViolations(page);
  expect(ids, `axe violations on the step-up screen:\n${report}`).toEqual([]);

  const { text } = await newestMail(page, account.email, /Tu código es \d{6}/);
  const code = /Tu código es (\d{6})/.exec(text)![1]!;
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  const field = page.getByLabel("Código del correo");
  await field.fill(wrong);
  await page.getByRole("button", { name: "Verificar" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText(
    "El código no es válido o venció. Vuelve a ingresar tu contraseña para recibir uno nuevo.",
  );

  await field.fill(code);
  await page.getByRole("button", { name: "Verificar" }).click();
  await page.waitForURL((url) => url.pathname === "/paciente");
  await expect(page.getByTestId("header-user-name")).toHaveText(account.firstName);
});
