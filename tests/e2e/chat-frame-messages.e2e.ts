import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { blockingViolations, createAccount, newAccount, openPage, useOwnClientIp } from "./support";

// The iframe ↔ parent messages that report state: the room reports its live connection to the parent
// (websocket_status) and the parent reports its mobile mode to the room (mobile_mode_status), each posted with an
// explicit target origin and accepted only from the expected origin and window.

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

const refuse = (route: { abort: () => Promise<void> }) => route.abort();
/** One Server-Sent Event as the room's stream sends it. */
const sseFrame = (event: string, data: unknown, id?: number) =>
  `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const room = (page: Page) => page.frameLocator('[data-testid="chat-room-frame"]');

test("the real widget: websocket_status drives the parent's connection notice, mobile_mode_status the room's buttons", async ({
  page,
}) => {
  await createAccount(page.context().request, newAccount("chat-frame"));
  // The room's first stream fails: it must tell the parent it is not connected.
  await page.route("**/api/chat/rooms/*/events", refuse);
  await openPage(page, "/paciente");
  await page.getByRole("button", { name: "Abrir chat con el Dentista Virtual IA" }).click();
  const notice = page.getByTestId("chat-connection");
  await expect(notice).toHaveText("Sin conexión con el chat. Reconectando…");
  // The network is back: the room reconnects (2 s later) and says so; the notice goes.
  await page.unroute("**/api/chat/rooms/*/events", refuse);
  await expect(notice).toHaveCount(0, { timeout: 15_000 });

  // Desktop: the compact panel's room offers fullscreen and the sidebar.
  const fullscreen = room(page).getByRole("button", { name: "Pantalla completa" });
  await expect(fullscreen).toBeVisible();
  await expect(room(page).getByRole("button", { name: "Mover a un costado" })).toBeVisible();
  // 375 px: the parent reports mobile mode; the panel already fills the screen, so the room drops those buttons.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(fullscreen).toHaveCount(0);
  await expect(room(page).getByRole("button", { name: "Mover a un costado" })).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(fullscreen).toBeVisible();
});

/** A guest, its room and tokens through the platform API, as the widget would get them. */
async function guestRoom(request: APIRequestContext) {
  const guest = (await (
    await request.post("/api/chat/guest", { data: { account_id: "clinica-chat" } })
  ).json()) as {
    id: string;
  };
  const created = (await (
    await request.post("/api/chat/guest/room", {
      data: { account_id: "clinica-chat", guest_id: guest.id, agent_id: "dentist-bot" },
    })
  ).json()) as { url: string };
  const tokens = (await (
    await request.post(`/api/chat/guest/login?guest_id=${guest.id}&account_id=clinica-chat`)
  ).json()) as { access_token: string };
  return { url: created.url, token: tokens.access_token };
}

/**
 * A parent page of our own (served by the test at `origin`) that frames the room, records every message it receives
 * with its origin and whether it came from the frame, answers the room's auth request with `token`, and can post
 * mobile_mode_status to the frame.
 */
function parentPage(roomSrc: string, token: string, frameOrigin: string) {
  return `<!doctype html><html lang="es"><head><title>Padre</title></head><body>
<iframe id="room" title="Sala" src="${roomSrc}" style="width:450px;height:600px"></iframe>
<script>
  window.received = [];
  const frame = document.getElementById("room");
  window.addEventListener("message", (event) => {
    window.received.push({ type: event.data && event.data.type, data: event.data, origin: event.origin,
      fromFrame: event.source === frame.contentWindow });
    if (event.source === frame.contentWindow && event.data && event.data.type === "request_guest_auth")
      frame.contentWindow.postMessage({ type: "guest_auth_response", access_token: ${JSON.stringify(token)} }, ${JSON.stringify(frameOrigin)});
  });
  window.reportMobile = (mobile) => frame.contentWindow.postMessage({ type: "mobile_mode_status", mobile }, ${JSON.stringify(frameOrigin)});
</script></body></html>`;
}

test("the room posts to its parent's exact origin: our parent hears websocket_status, mobile_mode_status is honoured", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const { url, token } = await guestRoom(page.request);
  const roomSrc = `${origin}${url}?show_fullscreen_button=true`;
  await page.route(`${origin}/__test/padre`, (route) =>
    route.fulfill({ contentType: "text/html", body: parentPage(roomSrc, token, origin) }),
  );
  await page.goto("/__test/padre");
  const received = () =>
    page.evaluate(
      () =>
        (
          window as unknown as {
            received: Array<{ type: string; data: unknown; origin: string; fromFrame: boolean }>;
          }
        ).received,
    );
  await expect
    .poll(async () => (await received()).find((message) => message.type === "websocket_status")?.data)
    .toEqual({ type: "websocket_status", connected: true });
  const messages = await received();
  expect(messages.map((message) => message.type)).toEqual(
    expect.arrayContaining(["activate_interface_parenthood", "request_guest_auth", "websocket_status"]),
  );
  expect(messages.every((message) => message.origin === origin && message.fromFrame)).toBe(true);

  const frame = page.frameLocator("#room");
  await expect(frame.getByRole("button", { name: "Pantalla completa" })).toBeVisible();
  await page.evaluate(() =>
    (window as unknown as { reportMobile: (mobile: boolean) => void }).reportMobile(true),
  );
  await expect(frame.getByRole("button", { name: "Pantalla completa" })).toHaveCount(0);
  await page.evaluate(() =>
    (window as unknown as { reportMobile: (mobile: boolean) => void }).reportMobile(false),
  );
  await expect(frame.getByRole("button", { name: "Pantalla completa" })).toBeVisible();
});

test("attack: a foreign parent (the room's frame-ancestors stripped so it can frame it) hears nothing and cannot drive the room", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  // Same server, another origin: 127.0.0.1 instead of localhost. Only frame-ancestors would stop it from framing the
  // room; the test strips that header so what is tested is the room's own origin checks.
  const foreign = origin.replace("localhost", "127.0.0.1");
  const { url, token } = await guestRoom(page.request);
  const roomSrc = `${origin}${url}?show_fullscreen_button=true`;
  await page.route(`${origin}${url}?**`, async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers["content-security-policy"];
    await route.fulfill({ response, headers });
  });
  await page.route(`${foreign}/__test/padre`, (route) =>
    route.fulfill({ contentType: "text/html", body: parentPage(roomSrc, token, origin) }),
  );
  await page.goto(`${foreign}/__test/padre`);
  const frame = page.frameLocator("#room");
  await expect(frame.getByRole("heading", { name: "Dentista Virtual IA" })).toBeVisible();
  await page.evaluate(() =>
    (window as unknown as { reportMobile: (mobile: boolean) => void }).reportMobile(true),
  );
  await page.waitForTimeout(2500);
  // The room addressed every message to our own origin, so this parent received none of them (not even its token
  // request), and it ignored the foreign mobile_mode_status.
  expect(await page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([]);
  await expect(frame.getByRole("button", { name: "Pantalla completa" })).toBeVisible();
  await expect(frame.getByText("Conectando...")).toBeVisible();
});

test("room options in the browser: dark theme is axe-clean; members and settings tabs work with the keyboard", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const { url, token } = await guestRoom(page.request);
  const roomSrc = `${origin}${url}?theme=dark&tabs=true&members=true&settings=true`;
  await page.route(`${origin}/__test/padre`, (route) =>
    route.fulfill({ contentType: "text/html", body: parentPage(roomSrc, token, origin) }),
  );
  await page.goto("/__test/padre");
  const frame = page.frameLocator("#room");
  await expect(frame.getByRole("heading", { name: "Aviso de asistencia con IA" })).toBeVisible();
  await expect(frame.locator("[data-theme]")).toHaveAttribute("data-theme", "dark");
  const { ids, report } = await blockingViolations(page);
  expect(ids, report).toEqual([]);

  await frame.getByRole("tab", { name: "Chat" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(frame.getByRole("tab", { name: "Miembros" })).toHaveAttribute("aria-selected", "true");
  await expect(frame.getByTestId("chat-members")).toContainText("Anonymous Visitor");
  await expect(frame.getByTestId("chat-members")).toContainText("Dentista Virtual IA");

  await page.keyboard.press("ArrowRight");
  await frame.getByRole("radio", { name: "Claro" }).check();
  await expect(frame.locator("[data-theme]")).toHaveAttribute("data-theme", "light");
  await frame.getByRole("radio", { name: "Grande" }).check();
  // Kept in this browser: a reload keeps the reader's choice over the page's theme=dark.
  await page.reload();
  await expect(frame.locator("[data-theme]")).toHaveAttribute("data-theme", "light");
  await frame.getByRole("tab", { name: "Ajustes" }).click();
  await expect(frame.getByRole("radio", { name: "Grande" })).toBeChecked();
});

test("voice_enabled: a mic only where the browser has speech recognition, and only when asked for", async ({
  page,
  browser,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const { url, token } = await guestRoom(page.request);
  // In the human's room no AI notice stands before the input.
  await page.request.post(`/api/chat/rooms/${url.split("/").at(-1)}/handoff`, {
    headers: { authorization: `Bearer ${token}` },
    data: {},
  });
  const openRoom = async (target: Page, query: string) => {
    await target.route(`${origin}/__test/padre`, (route) =>
      route.fulfill({ contentType: "text/html", body: parentPage(`${origin}${url}${query}`, token, origin) }),
    );
    await target.goto(`${origin}/__test/padre`);
    const frame = target.frameLocator("#room");
    await expect(frame.getByRole("textbox", { name: "Escribe tu mensaje" })).toBeVisible();
    return frame;
  };
  const hasRecognition = await page.evaluate(
    () => "SpeechRecognition" in window || "webkitSpeechRecognition" in window,
  );

  const asked = await openRoom(page, "?voice_enabled=true");
  await expect(asked.getByRole("button", { name: "Dictar mensaje" })).toHaveCount(hasRecognition ? 1 : 0);
  const notAsked = await openRoom(page, "");
  await expect(notAsked.getByRole("button", { name: "Dictar mensaje" })).toHaveCount(0);

  // A browser without speech recognition gets no mic, even when asked: nothing is faked.
  const context = await browser.newContext();
  await useOwnClientIp(context);
  await context.addInitScript(() => {
    const scope = window as unknown as Record<string, unknown>;
    delete scope.SpeechRecognition;
    delete scope.webkitSpeechRecognition;
  });
  const without = await context.newPage();
  const bare = await openRoom(without, "?voice_enabled=true");
  await expect(bare.getByRole("textbox", { name: "Escribe tu mensaje" })).toBeVisible();
  await expect(bare.getByRole("button", { name: "Dictar mensaje" })).toHaveCount(0);
  await context.close();
});

test("an agent-delta draft grows in the room hidden from the live region, and the stored reply replaces it", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const { url, token } = await guestRoom(page.request);
  const replyId = "5d0c6a8e-8f7e-4c1e-9d8a-2c1b3a4d5e6f";
  // The room's stream, played by the test: first two pieces of a draft (then the stream ends, as a dropped
  // connection would), then — on the room's reconnect — the stored reply and the draft's end.
  let connects = 0;
  await page.route("**/api/chat/rooms/*/events", (route) => {
    connects += 1;
    const body =
      connects === 1
        ? sseFrame("agent-delta", { id: replyId, offset: 0, delta: "Los implantes ", done: false }) +
          sseFrame("agent-delta", { id: replyId, offset: 14, delta: "requieren evaluación", done: false })
        : sseFrame(
            "message",
            {
              seq: 1000,
              id: replyId,
              room_id: "x",
              author: "agent",
              kind: "message",
              content: "Los implantes requieren evaluación. Agenda en [Mis Citas](/paciente/citas).",
              created_at: new Date().toISOString(),
            },
            1000,
          ) + sseFrame("agent-delta", { id: replyId, offset: 34, delta: "", done: true });
    return route.fulfill({ status: 200, contentType: "text/event-stream", body });
  });
  await page.route(`${origin}/__test/padre`, (route) =>
    route.fulfill({ contentType: "text/html", body: parentPage(`${origin}${url}`, token, origin) }),
  );
  await page.goto(`${origin}/__test/padre`);
  const list = page.frameLocator("#room").getByRole("list", { name: "Mensajes" });
  const draft = list.locator('[data-draft="true"]');
  await expect(draft).toContainText("Los implantes requieren evaluación");
  await expect(draft).toHaveAttribute("aria-hidden", "true");
  await expect(list).toHaveAttribute("aria-busy", "true");
  // The reconnect (2 s later) brings the stored reply: one agent message, with its link, and no draft.
  await expect(draft).toHaveCount(0, { timeout: 15_000 });
  const agent = list.locator('[data-author="agent"]');
  await expect(agent).toHaveCount(1);
  await expect(agent.getByRole("link", { name: "Mis Citas" })).toHaveAttribute("href", "/paciente/citas");
  await expect(list).toHaveAttribute("aria-busy", "false");
});

test("the dark room with messages, the input and the waiting notice is axe-clean", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const { url, token } = await guestRoom(page.request);
  const roomId = url.split("/").at(-1)!;
  const auth = { authorization: `Bearer ${token}` };
  await page.request.post(`/api/chat/rooms/${roomId}/handoff`, { headers: auth, data: {} });
  await page.request.post(`/api/chat/rooms/${roomId}/messages`, {
    headers: auth,
    data: { id: crypto.randomUUID(), content: "Hola, necesito ayuda con mi hora" },
  });
  await page.route(`${origin}/__test/padre`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: parentPage(`${origin}${url}?theme=dark&voice_enabled=true`, token, origin),
    }),
  );
  await page.goto(`${origin}/__test/padre`);
  const frame = page.frameLocator("#room");
  await expect(frame.locator('[data-author="guest"]')).toContainText("Hola, necesito ayuda");
  await expect(frame.getByText(/Una persona del equipo te responderá aquí/)).toBeVisible();
  const { ids, report } = await blockingViolations(page);
  expect(ids, report).toEqual([]);
});
