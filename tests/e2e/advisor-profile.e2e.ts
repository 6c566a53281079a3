import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import {
  createAccount,
  holdScripts,
  newAccount,
  openPage,
  useOwnClientIp,
  waitForHydration,
  WCAG_TAGS,
  type NewAccount,
} from "./support";

// Asesor Virtual, Mi Perfil and the dashboard (ADR 006 for the local chat replies).

const PHONE_ERROR = "Ingresa un teléfono chileno válido, por ejemplo +56 9 1234 5678.";
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

/** A fresh patient, signed up through /auth's form (no-JavaScript path); the page's context is signed in. */
async function signUp(page: Page, prefix: string): Promise<NewAccount> {
  return createAccount(page.context().request, newAccount(prefix));
}

const chatInput = (page: Page) => page.getByPlaceholder("Escribe tu consulta aquí...");
const sendButton = (page: Page) => page.getByRole("button", { name: "Enviar mensaje" });
const bubbles = (page: Page) => page.getByRole("log").getByTestId("advisor-message");
const lastAssistant = (page: Page) => bubbles(page).and(page.locator('[data-role="assistant"]')).last();
const lastUser = (page: Page) => bubbles(page).and(page.locator('[data-role="user"]')).last();

/** Types a message, sends it with Enter and waits for the advisor's answer. */
async function ask(page: Page, text: string) {
  const before = await bubbles(page).count();
  await chatInput(page).fill(text);
  await chatInput(page).press("Enter");
  await expect(chatInput(page)).toHaveValue("");
  await expect(bubbles(page)).toHaveCount(before + 2);
  await expect(page.getByTestId("advisor-typing")).toHaveCount(0);
}

test("advisor: answers by the rules, keeps the conversation after a reload, text stays text", async ({
  page,
}) => {
  const account = await signUp(page, "asesor");
  await openPage(page, "/paciente/asesor");

  await expect(page.getByRole("heading", { level: 1, name: "Asesor Virtual" })).toBeVisible();
  await expect(page.getByText("Asistente inteligente disponible 24/7")).toBeVisible();
  await expect(page.getByText("Ante una emergencia dental, llama directamente a la clínica")).toBeVisible();
  await expect(page.getByText("En línea", { exact: true })).toBeVisible();
  const log = page.getByRole("log");
  await expect(log).toHaveAttribute("aria-live", "polite");
  const card = page.locator("section").filter({ has: log });
  expect((await card.boundingBox())?.height).toBe(600);

  // The stored welcome message.
  await expect(bubbles(page)).toHaveCount(1);
  await expect(bubbles(page).first()).toContainText(`¡Hola ${account.firstName}!`);
  await expect(sendButton(page)).toBeDisabled();
  await chatInput(page).fill("   ");
  await expect(sendButton(page)).toBeDisabled();

  // The typing indicator shows while the answer is on its way; sending is blocked meanwhile.
  await chatInput(page).fill("quiero agendar una cita");
  await expect(sendButton(page)).toBeEnabled();
  await chatInput(page).press("Enter");
  await expect(page.getByTestId("advisor-typing")).toBeVisible();
  await expect(sendButton(page)).toBeDisabled();
  await expect(lastUser(page)).toContainText("quiero agendar una cita");
  await expect(lastAssistant(page)).toHaveAttribute("data-type", "appointment");
  await expect(lastAssistant(page)).toContainText("Información sobre citas");
  await expect(page.getByTestId("advisor-typing")).toHaveCount(0);

  await ask(page, "me duele una muela");
  await expect(lastAssistant(page)).toHaveAttribute("data-type", "emergency");
  await expect(lastAssistant(page)).toContainText("Si tienes una urgencia dental");

  await ask(page, "hola");
  await expect(lastAssistant(page)).toHaveAttribute("data-type", "general");
  for (const keyword of ["CITAS", "TRATAMIENTOS", "CONTACTO", "EMERGENCIA"]) {
    await expect(lastAssistant(page)).toContainText(keyword);
  }

  // Shift+Enter makes a new line; Enter sends.
  await chatInput(page).fill("primera línea");
  await chatInput(page).press("Shift+Enter");
  await chatInput(page).pressSequentially("segunda línea");
  await expect(chatInput(page)).toHaveValue("primera línea\nsegunda línea");
  await chatInput(page).press("Enter");
  await expect(lastUser(page).getByTestId("advisor-message-text")).toHaveText("primera línea\nsegunda línea");
  await expect(page.getByTestId("advisor-typing")).toHaveCount(0);

  // Markup is shown literally, never run.
  const script = "<script>window.__advisorInjected = true</script><b>negrita</b>";
  await ask(page, script);
  await expect(lastUser(page).getByTestId("advisor-message-text")).toHaveText(script);
  await expect(log.locator("b")).toHaveCount(0);
  expect(
    await page.evaluate(() => (window as unknown as { __advisorInjected?: boolean }).__advisorInjected),
  ).toBe(undefined);

  const texts = await bubbles(page).getByTestId("advisor-message-text").allInnerTexts();
  expect(texts).toHaveLength(11);
  for (const time of await bubbles(page).locator("time").allInnerTexts()) expect(time).toMatch(HH_MM);

  // The conversation is kept per user and survives a reload.
  await page.reload();
  await waitForHydration(page);
  await expect(bubbles(page)).toHaveCount(11);
  expect(await bubbles(page).getByTestId("advisor-message-text").allInnerTexts()).toEqual(texts);
  await expect(lastUser(page).getByTestId("advisor-message-text")).toHaveText(script);
});

test("advisor: what is typed before the page hydrates stays in the field and is what Enter sends", async ({
  page,
}) => {
  await signUp(page, "asesor-early");
  const hydrate = await holdScripts(page);
  await page.goto("/paciente/asesor", { waitUntil: "commit" });
  await chatInput(page).pressSequentially("¿Cuánto cuesta una limpieza?");
  await hydrate();
  await expect(chatInput(page)).toHaveValue("¿Cuánto cuesta una limpieza?");
  await expect(sendButton(page)).toBeEnabled();
  await chatInput(page).press("Enter");
  await expect(lastUser(page)).toContainText("¿Cuánto cuesta una limpieza?");
  await expect(lastAssistant(page)).toContainText("Nuestros tratamientos");
  await expect(chatInput(page)).toHaveValue("");
});

test("advisor: quick actions only fill the input; the help card calls the clinic", async ({ page }) => {
  await signUp(page, "acciones");
  await openPage(page, "/paciente/asesor");
  await expect(bubbles(page)).toHaveCount(1);

  const quick = page.getByRole("region", { name: "Acciones Rápidas" });
  const cases = [
    ["Agendar cita", "Quiero agendar una nueva cita"],
    ["Información de contacto", "Necesito los datos de contacto de la clínica"],
    ["Consulta general", "Tengo una consulta sobre tratamientos dentales"],
  ] as const;
  for (const [label, text] of cases) {
    await quick.getByRole("button", { name: label }).click();
    await expect(chatInput(page)).toHaveValue(text);
    await expect(chatInput(page)).toBeFocused();
  }
  await expect(bubbles(page)).toHaveCount(1);

  const help = page.getByRole("region", { name: "¿Necesitas más ayuda?" });
  await expect(help.getByRole("link", { name: "Llamar a la Clínica" })).toHaveAttribute(
    "href",
    /^tel:\+56\d{9}$/,
  );
  await expect(help).toContainText("Lun-Vie 9:00-18:00");

  // A quick action's text is sent like any other.
  await chatInput(page).press("Enter");
  await expect(bubbles(page)).toHaveCount(3);
  await expect(lastAssistant(page)).toHaveAttribute("data-type", "general");
  await expect(lastAssistant(page)).toContainText("Nuestros tratamientos");

  // A lost connection: the spec's failure message in the chat, and the page stays usable.
  await page.route(
    (url) => url.pathname.startsWith("/paciente/asesor"),
    (route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue()),
  );
  await chatInput(page).fill("¿siguen ahí?");
  await chatInput(page).press("Enter");
  await expect(lastAssistant(page)).toHaveText(
    /Lo siento, hubo un error\. Por favor intenta nuevamente o contacta directamente con la clínica\./,
  );
  await expect(page.getByRole("heading", { level: 1, name: "Asesor Virtual" })).toBeVisible();
  await page.unrouteAll();
  await chatInput(page).fill("contacto");
  await chatInput(page).press("Enter");
  await expect(lastAssistant(page)).toContainText("Datos de contacto");
});

test("profile: an edit survives a reload; an invalid phone is refused in Spanish and saves nothing", async ({
  page,
}) => {
  const account = await signUp(page, "perfil");
  await openPage(page, "/paciente/perfil");

  await expect(page.getByRole("heading", { level: 1, name: "Mi Perfil" })).toBeVisible();
  const email = page.getByLabel("Email");
  await expect(email).toHaveValue(account.email);
  await expect(email).toHaveAttribute("readonly", "");
  await expect(page.getByText("El email no se puede modificar")).toBeVisible();
  await expect(page.getByLabel("Teléfono", { exact: true })).toHaveAttribute(
    "placeholder",
    "+56 9 1234 5678",
  );
  await expect(page.getByLabel("Teléfono", { exact: true })).toHaveAttribute("type", "tel");
  await expect(page.getByLabel("Dirección")).toHaveAttribute("rows", "3");
  await expect(
    page.getByText("Este contacto será notificado en caso de una emergencia médica"),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Información de la Clínica" })).toContainText(
    "+56 2 2345 6789",
  );

  await page.getByLabel("Nombre", { exact: true }).fill("Valeria");
  await page.getByLabel("Teléfono", { exact: true }).fill("9 8765 4321");
  await page.getByLabel("Dirección").fill("Av. Los Leones 456\nDepto 12, Providencia");
  await page.getByLabel("Nombre del contacto").fill("Pedro Rojas");
  await page.getByLabel("Teléfono de emergencia").fill("+56 (2) 2345-6789");
  // The WhatsApp consent: off until the patient turns it on.
  const whatsapp = page.getByRole("checkbox", {
    name: "Recibir recordatorios y avisos de mis citas por WhatsApp",
  });
  await expect(whatsapp).not.toBeChecked();
  await expect(page.getByText("Necesitas un teléfono móvil en el campo Teléfono.")).toBeVisible();
  await whatsapp.check();

  // 'Guardando...' while the save is on its way.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname.startsWith("/paciente/perfil"),
    async (route) => {
      if (route.request().method() === "POST") await gate;
      await route.continue();
    },
  );
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByRole("button", { name: "Guardando..." })).toBeDisabled();
  release();

  await expect(page.getByText("Perfil actualizado")).toBeVisible();
  await expect(page.getByText("Tu información ha sido guardada correctamente")).toBeVisible();
  await expect(page.getByTestId("header-user-name")).toHaveText("Valeria");

  await page.unrouteAll();
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue("Valeria");
  await expect(page.getByLabel("Teléfono", { exact: true })).toHaveValue("+56 9 8765 4321");
  await expect(page.getByLabel("Dirección")).toHaveValue("Av. Los Leones 456\nDepto 12, Providencia");
  await expect(page.getByLabel("Nombre del contacto")).toHaveValue("Pedro Rojas");
  await expect(page.getByLabel("Teléfono de emergencia")).toHaveValue("+56 2 2345 6789");
  await expect(whatsapp).toBeChecked();

  // Invalid phone: the Spanish message beside the field, the error toast, nothing saved.
  await page.getByLabel("Nombre", { exact: true }).fill("NoGuardar");
  await page.getByLabel("Teléfono", { exact: true }).fill("12345");
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText(PHONE_ERROR)).toBeVisible();
  await expect(page.getByLabel("Teléfono", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("No se pudo actualizar el perfil")).toBeVisible();
  await expect(page.getByLabel("Teléfono", { exact: true })).toHaveValue("12345");

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue("Valeria");
  await expect(page.getByLabel("Teléfono", { exact: true })).toHaveValue("+56 9 8765 4321");

  // Withdrawing the WhatsApp consent is saved too.
  await expect(whatsapp).toBeChecked();
  await whatsapp.uncheck();
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Perfil actualizado")).toBeVisible();
  await page.reload();
  await waitForHydration(page);
  await expect(whatsapp).not.toBeChecked();
});

test("dashboard: greeting, next appointment invitation, counts, shortcuts and profile completeness", async ({
  page,
}) => {
  const account = await signUp(page, "panel");
  await openPage(page, "/paciente");
  await expect(page.getByRole("heading", { level: 1, name: `Hola, ${account.firstName}` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Confirma tu correo" })).toBeVisible();
  await expect(page.getByText("No tienes citas programadas")).toBeVisible();
  await expect(page.getByRole("link", { name: "Agendar Cita" })).toHaveAttribute("href", "/paciente/citas");
  await expect(page.getByText("Tu perfil está completo al 0%")).toBeVisible();

  const shortcuts = page.getByRole("navigation", { name: "Accesos directos" });
  for (const [name, href] of [
    ["Mis Citas", "/paciente/citas"],
    ["Asesor Virtual", "/paciente/asesor"],
    ["Mi Perfil", "/paciente/perfil"],
  ] as const) {
    await expect(shortcuts.getByRole("link", { name })).toHaveAttribute("href", href);
  }

  await shortcuts.getByRole("link", { name: "Mi Perfil" }).click();
  await page.waitForURL((url) => url.pathname === "/paciente/perfil");
  await waitForHydration(page);
  await page.getByLabel("Teléfono", { exact: true }).fill("+56 9 1111 2222");
  await page.getByLabel("Nombre del contacto").fill("Pedro Rojas");
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Perfil actualizado")).toBeVisible();

  await openPage(page, "/paciente");
  await expect(page.getByText("Tu perfil está completo al 50%")).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "50");
});

test("axe: no serious or critical WCAG 2.1 AA violations on the patient pages", async ({ page }) => {
  await signUp(page, "axe-paciente");
  const found: string[] = [];
  for (const path of ["/paciente", "/paciente/asesor", "/paciente/perfil"]) {
    await openPage(page, path);
    const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    for (const violation of results.violations) {
      if (violation.impact !== "serious" && violation.impact !== "critical") continue;
      found.push(
        `${path} [${violation.impact}] ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
    }
  }
  expect(found).toEqual([]);
});
