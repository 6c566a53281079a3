import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { createAccount, newAccount, openPage, useOwnClientIp, waitForHydration, WCAG_TAGS } from "./support";

// The /auth screen itself: language switch, help dialog, accessibility.

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

const htmlLang = (page: Page) => page.locator("html").getAttribute("lang");

test("the language link switches the screen between Spanish and English, and the choice is remembered", async ({
  page,
}) => {
  await openPage(page, "/auth");
  expect(await htmlLang(page)).toBe("es-CL");
  await expect(page.getByRole("heading", { level: 1, name: "Iniciar sesión" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continuar con Google" })).toBeVisible();

  await page.getByRole("link", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue with Google" })).toBeVisible();
  await expect(page.getByLabel("Email address")).toBeVisible();
  await expect(page.getByRole("link", { name: "Don't have an account? Sign up" })).toBeVisible();
  await expect.poll(() => htmlLang(page)).toBe("en");

  // Remembered without the query parameter (cookie), also after a reload.
  await openPage(page, "/auth");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "Continue with Google" })).toBeVisible();
  expect(await htmlLang(page)).toBe("en");
  expect((await page.context().cookies()).find((cookie) => cookie.name === "lang")?.value).toBe("en");

  await page.getByRole("link", { name: "Español" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Iniciar sesión" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continuar con Google" })).toBeVisible();
  await expect.poll(() => htmlLang(page)).toBe("es-CL");
  await openPage(page, "/auth");
  await expect(page.getByRole("heading", { level: 1, name: "Iniciar sesión" })).toBeVisible();
  expect(await htmlLang(page)).toBe("es-CL");
});

test("help: 'Ayuda' opens the modal 'Guía de Acceso al Portal' with phone and hours; Escape closes it", async ({
  page,
}) => {
  await openPage(page, "/auth");
  const helpButton = page.getByRole("button", { name: "Ayuda" });
  await helpButton.click();

  const dialog = page.getByRole("dialog", { name: "Guía de Acceso al Portal" });
  await expect(dialog).toBeVisible();
  // Modal: announced as such, and the page behind it is out of the accessibility tree while it is open.
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(helpButton).toHaveCount(0);
  await expect(dialog.getByRole("link", { name: "+56 2 2345 6789" })).toHaveAttribute(
    "href",
    "tel:+56223456789",
  );
  await expect(dialog).toContainText("9:00 - 18:00");
  await expect(dialog).toContainText(/lunes a viernes/i);
  // Focus is inside the dialog while it is open.
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(helpButton).toBeFocused();
});

async function expectNoBlockingViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const blocking = results.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  const report = blocking
    .map(
      (violation) =>
        `[${violation.impact}] ${violation.id}: ${violation.help}\n` +
        violation.nodes
          .slice(0, 5)
          .map((node) => `    ${node.target.join(" ")}: ${node.failureSummary?.replace(/\n/g, " ")}`)
          .join("\n"),
    )
    .join("\n");
  expect(
    blocking.map((violation) => violation.id),
    `axe on ${label}:\n${report}`,
  ).toEqual([]);
}

for (const path of ["/auth", "/auth?modo=registro", "/auth?lang=en", "/auth?modo=registro&lang=en"]) {
  test(`axe: ${path} has no serious or critical WCAG 2.1 AA violations`, async ({ page }) => {
    await openPage(page, path);
    await expectNoBlockingViolations(page, path);
  });
}

test("axe: /auth with an error shown and with the help dialog open", async ({ page }) => {
  await openPage(page, "/auth");
  await page.getByLabel("Correo electrónico").fill("nadie@correo.example");
  await page.getByLabel("Contraseña", { exact: true }).fill("clinica2026");
  await page.getByRole("button", { name: "Continuar", exact: true }).click();
  await expect(page.getByRole("main").getByRole("alert")).toBeVisible();
  await expectNoBlockingViolations(page, "/auth with an error");
  await page.getByRole("button", { name: "Ayuda" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoBlockingViolations(page, "/auth help dialog");
});

test("axe: /cuenta/seguridad has no serious or critical WCAG 2.1 AA violations", async ({
  page,
  context,
}) => {
  await createAccount(context.request, newAccount("axe"));
  await openPage(page, "/cuenta/seguridad");
  await expect(page.getByRole("heading", { level: 1, name: "Seguridad de la cuenta" })).toBeVisible();
  await expectNoBlockingViolations(page, "/cuenta/seguridad");
});
