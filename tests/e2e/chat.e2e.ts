import { expect, test, type Page } from "@playwright/test";
import {
  blockingViolations,
  createAccount,
  DEMO_PASSWORD,
  holdScripts,
  newAccount,
  openPage,
  signInByRequest,
  signOutFromHeader,
  useOwnClientIp,
} from "./support";

// The chat widget, the virtual dentist and the staff inbox (ADR 033).

const DEMO_ADVISOR = "asesor@clinica.example";

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

const openButton = (page: Page) =>
  page.getByRole("button", { name: "Abrir chat con el Dentista Virtual IA" });
const room = (page: Page) => page.frameLocator('[data-testid="chat-room-frame"]');

async function openWidget(page: Page) {
  await openButton(page).click();
  await expect(page.getByTestId("chat-panel")).toBeVisible();
  await expect(room(page).getByRole("heading", { name: "Dentista Virtual IA" })).toBeVisible();
}

test("a patient asks the virtual dentist, then a person; an asesor takes it and replies live", async ({
  page,
  browser,
}) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await createAccount(page.context().request, newAccount("chat"));
  await openPage(page, "/paciente");
  // The panel's code is not part of the page until the widget is opened.
  expect(scripts.some((url) => /chat-widget-panel/.test(url))).toBe(false);
  await openWidget(page);
  expect(scripts.some((url) => /chat-widget-panel/.test(url))).toBe(true);

  const frame = room(page);
  await expect(frame.getByRole("heading", { name: "Aviso de asistencia con IA" })).toBeVisible();
  await frame.getByRole("button", { name: "Acepto y quiero continuar" }).click();
  await frame.getByRole("button", { name: "¿Pueden predecir el resultado de mi implante?" }).click();
  const messages = frame.getByRole("list", { name: "Mensajes" });
  const agent = messages.locator('[data-author="agent"]').last();
  await expect(agent).toContainText("No es posible predecir ni garantizar");
  await expect(agent.getByRole("link", { name: "Mis Citas" })).toHaveAttribute("href", "/paciente/citas");
  await expect(agent.getByRole("link").last()).toHaveAttribute("href", /^\/(blog|guias)\//);

  // What people write is text, never markup.
  const input = frame.getByRole("textbox", { name: "Escribe tu mensaje" });
  await input.fill('<script>window.hacked=1</script><img src=x onerror="window.hacked=2">');
  // The suggested question's post may still be in flight after the agent's reply streamed in; the composer ignores a
  // send until it is done, and says so by disabling its send button.
  await expect(frame.getByRole("button", { name: "Enviar mensaje" })).toBeEnabled();
  await input.press("Enter");
  const mine = messages.locator('[data-author="guest"]').last();
  await expect(mine).toContainText('<script>window.hacked=1</script><img src=x onerror="window.hacked=2">');
  await expect(mine.locator("img, script")).toHaveCount(0);
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();

  await frame.getByRole("button", { name: "Hablar con una persona" }).click();
  await expect(frame.getByText(/Una persona del equipo te responderá/).first()).toBeVisible();
  const src = await page.getByTestId("chat-room-frame").getAttribute("src");
  const roomId = /\/chat\/sala\/([0-9a-f-]{36})/.exec(src ?? "")![1]!;

  // An asesor, in another browser, takes the conversation and replies.
  const staffContext = await browser.newContext();
  await useOwnClientIp(staffContext);
  const staff = await staffContext.newPage();
  await signInByRequest(staff, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(staff, `/equipo/conversaciones?sala=${roomId}`);
  await expect(staff.getByText("El paciente pidió hablar con una persona").first()).toBeVisible();
  await staff.getByRole("button", { name: "Tomar conversación" }).click();
  await expect(staff.getByRole("status").filter({ hasText: "Conversación tomada." })).toBeVisible();
  await staff
    .getByRole("textbox", { name: "Mensaje", exact: true })
    .fill("Hola, soy Camila del equipo. ¿En qué te ayudo?");
  await staff.getByRole("button", { name: "Responder al paciente" }).click();
  await expect(staff.getByTestId("inbox-messages")).toContainText("Hola, soy Camila del equipo.");

  // The patient sees it without reloading.
  await expect(messages.locator('[data-author="staff"]')).toContainText("Hola, soy Camila del equipo.");
  // The inbox follows the patient's answer without reloading (its automatic re-read, ADR 033).
  await input.fill("Gracias, quería consultar por un presupuesto.");
  await input.press("Enter");
  await expect(staff.getByTestId("inbox-messages")).toContainText("quería consultar por un presupuesto");
  await expect(staff.getByRole("button", { name: "Devolver al asistente" })).toBeVisible();
  await staffContext.close();
});

test("what is typed in the compact bar reaches the room: carried on click, sent on Enter (issue 24, item 4)", async ({
  page,
}) => {
  await createAccount(page.context().request, newAccount("chat-bar"));
  await openPage(page, "/paciente");
  const bar = page.getByRole("textbox", { name: "Escribe tu consulta al Dentista Virtual IA" });

  // A click opens the panel; the typed text waits in the composer, unsent.
  await bar.fill("Tengo una duda sobre");
  await bar.click();
  const frame = room(page);
  await frame.getByRole("button", { name: "Acepto y quiero continuar" }).click();
  const input = frame.getByRole("textbox", { name: "Escribe tu mensaje" });
  await expect(input).toHaveValue("Tengo una duda sobre");
  const messages = frame.getByRole("list", { name: "Mensajes" });
  await expect(messages.locator('[data-author="guest"]')).toHaveCount(0);
  // The text travelled in the URL's fragment (never to a server) and the fragment is gone from the room page.
  expect(await page.getByTestId("chat-room-frame").getAttribute("src")).toContain("#draft=");
  await frame.getByRole("button", { name: "Cerrar chat" }).click();
  await expect(page.getByTestId("chat-panel")).toHaveCount(0);

  // Enter opens the panel and sends it.
  await bar.fill("¿Cuánto cuesta una limpieza?");
  await bar.press("Enter");
  await expect(messages.locator('[data-author="guest"]').last()).toContainText(
    "¿Cuánto cuesta una limpieza?",
  );
  await expect(frame.getByRole("textbox", { name: "Escribe tu mensaje" })).toHaveValue("");
});

test("what is typed in the compact bar before the page hydrates is what Enter sends", async ({ page }) => {
  await createAccount(page.context().request, newAccount("chat-early"));
  const hydrate = await holdScripts(page);
  await page.goto("/paciente", { waitUntil: "commit" });
  const bar = page.getByRole("textbox", { name: "Escribe tu consulta al Dentista Virtual IA" });
  await bar.pressSequentially("Hola, tengo una consulta");
  await hydrate();
  await expect(bar).toHaveValue("Hola, tengo una consulta");
  await bar.press("Enter");
  const frame = room(page);
  await frame.getByRole("button", { name: "Acepto y quiero continuar" }).click();
  await expect(
    frame.getByRole("list", { name: "Mensajes" }).locator('[data-author="guest"]').last(),
  ).toContainText("Hola, tengo una consulta");
});

test("at 375 px the open panel fills the screen minus the margins, and the overlay closes it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await createAccount(page.context().request, newAccount("chat-mobile"));
  await openPage(page, "/paciente/citas");
  await openWidget(page);
  const box = (await page.getByTestId("chat-panel").boundingBox())!;
  expect(Math.round(box.width)).toBe(375 - 40);
  expect(Math.round(box.height)).toBe(740 - 100);
  expect(Math.round(box.x)).toBe(20);
  await page.getByTestId("chat-overlay").click({ position: { x: 5, y: 5 } });
  await expect(page.getByTestId("chat-panel")).toHaveCount(0);
  await expect(openButton(page)).toBeVisible();
});

test("the widget is keyboard usable and axe-clean; the room page refuses foreign framing", async ({
  page,
}) => {
  await createAccount(page.context().request, newAccount("chat-a11y"));
  await openPage(page, "/paciente");
  const bar = page.getByRole("textbox", { name: "Escribe tu consulta al Dentista Virtual IA" });
  await bar.focus();
  await bar.press("Enter");
  await expect(page.getByTestId("chat-panel")).toBeVisible();
  await expect(room(page).getByRole("heading", { name: "Aviso de asistencia con IA" })).toBeVisible();
  const { ids, report } = await blockingViolations(page);
  expect(ids, report).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("chat-panel")).toHaveCount(0);

  const src = await page.request.get("/chat/sala/00000000-0000-4000-8000-000000000000");
  expect(src.headers()["content-security-policy"]).toMatch(/frame-ancestors 'self'(;|$| )/);
  expect(src.headers()["x-frame-options"]).toBeUndefined();
  const other = await page.request.get("/paciente");
  expect(other.headers()["x-frame-options"]).toBe("DENY");
});

/** The chat tokens this browser keeps (localStorage keys `chat_tokens_<account>`). */
const storedChatTokens = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith("chat_tokens_"))
      .map((key) => JSON.parse(localStorage.getItem(key)!) as { refresh_token: string }),
  );

test("attack: after 'Salir' the browser keeps no chat tokens, and a copy taken before is refused", async ({
  page,
}) => {
  await createAccount(page.context().request, newAccount("chat-salir"));
  await openPage(page, "/paciente");
  await openWidget(page);
  const [before] = await storedChatTokens(page);
  expect(before?.refresh_token).toBeTruthy();

  await signOutFromHeader(page);
  await expect.poll(() => storedChatTokens(page)).toEqual([]);
  // ADR 032: the refresh token would have read the patient's chat history for 30 days.
  const replayed = await page.request.post("/api/chat/guest/token/refresh", {
    data: { refresh_token: before!.refresh_token, jid: false },
  });
  expect(replayed.status()).toBe(401);
});
