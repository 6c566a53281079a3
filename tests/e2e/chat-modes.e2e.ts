import { expect, test, type Page } from "@playwright/test";
import {
  blockingViolations,
  createAccount,
  DEMO_PASSWORD,
  newAccount,
  openPage,
  signInByRequest,
  useOwnClientIp,
} from "./support";

// Issue 24, item 20 (spec 001 §3–§4, §9; ADR 043): room mode from a clinic's link, the initial open_mode, the
// compact bar hiding while the page scrolls (back 600 ms after), and a docked panel that leaves no gap.

const DEMO_ADVISOR = "asesor@clinica.example";

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

const panel = (page: Page) => page.getByTestId("chat-panel");
const room = (page: Page) => page.frameLocator('[data-testid="chat-room-frame"]');
const bar = (page: Page) => page.getByRole("search", { name: "Dentista Virtual IA" });
const roomIdOf = async (page: Page) =>
  /\/chat\/sala\/([0-9a-f-]{36})/.exec(
    (await page.getByTestId("chat-room-frame").getAttribute("src")) ?? "",
  )?.[1];

test("a clinic's link opens that room with its history, for its own patient only", async ({
  page,
  browser,
}) => {
  await createAccount(page.context().request, newAccount("chat-link"));
  await openPage(page, "/paciente");
  await page.getByRole("button", { name: "Abrir chat con el Dentista Virtual IA" }).click();
  const frame = room(page);
  await frame.getByRole("button", { name: "Hablar con una persona" }).first().click();
  const input = frame.getByRole("textbox", { name: "Escribe tu mensaje" });
  await input.fill("Necesito mover mi control de ortodoncia.");
  await input.press("Enter");
  const messages = frame.getByRole("list", { name: "Mensajes" });
  await expect(messages.locator('[data-author="guest"]')).toContainText("Necesito mover mi control");
  const roomId = (await roomIdOf(page))!;
  expect(roomId).toBeTruthy();
  await frame.getByRole("button", { name: "Cerrar chat" }).click();

  // An asesor answers, makes the link, and closes the conversation.
  const staffContext = await browser.newContext();
  await useOwnClientIp(staffContext);
  const staff = await staffContext.newPage();
  await signInByRequest(staff, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(staff, `/equipo/conversaciones?sala=${roomId}`);
  await staff.getByRole("button", { name: "Tomar conversación" }).click();
  await expect(staff.getByRole("status").filter({ hasText: "Conversación tomada." })).toBeVisible();
  await staff.getByRole("textbox", { name: "Mensaje", exact: true }).fill("Te escribimos desde la clínica.");
  await staff.getByRole("button", { name: "Responder al paciente" }).click();
  await expect(staff.getByTestId("inbox-messages")).toContainText("Te escribimos desde la clínica.");
  // Keyboard: the link is made with Enter on its button.
  await staff.getByRole("button", { name: "Crear enlace para el paciente" }).focus();
  await staff.keyboard.press("Enter");
  const linkField = staff.getByRole("textbox", { name: /Enlace para el paciente/ });
  await expect(linkField).toHaveValue(/\/paciente\?sala=/);
  const link = await linkField.inputValue();
  expect(link).not.toContain(roomId);
  const { ids, report } = await blockingViolations(staff);
  expect(ids, report).toEqual([]);
  await staff.getByRole("button", { name: "Marcar resuelta" }).click();
  await expect(staff.getByRole("status").filter({ hasText: "Conversación resuelta." })).toBeVisible();
  await staffContext.close();

  // The patient follows the link: the panel opens by itself on that room (resolved, so agent mode would have
  // started a new one), with its history.
  await openPage(page, link);
  await expect(panel(page)).toBeVisible();
  expect(await roomIdOf(page)).toBe(roomId);
  await expect(messages.locator('[data-author="guest"]')).toContainText("Necesito mover mi control");
  await expect(messages.locator('[data-author="staff"]')).toContainText("Te escribimos desde la clínica.");

  // Another patient with the same (forwarded) link: a notice, and no room.
  const otherContext = await browser.newContext();
  await useOwnClientIp(otherContext);
  const other = await otherContext.newPage();
  await createAccount(otherContext.request, newAccount("chat-link-other"));
  await openPage(other, link);
  await expect(other.getByTestId("chat-link-notice")).toHaveText(/el enlace no es válido para tu cuenta/);
  await expect(panel(other)).toHaveCount(0);
  await expect(bar(other)).toBeVisible();
  await otherContext.close();
});

const r = (value: number) => Math.round(value);

/** The panel's and the page's boxes, and the viewport without its scrollbar. */
const boxes = (page: Page) =>
  page.evaluate(() => {
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- runs in the page, so it is defined in it
    const rect = (element: Element | null) => {
      const box = element?.getBoundingClientRect() ?? new DOMRect();
      return { left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width };
    };
    return {
      panel: rect(document.querySelector('[data-testid="chat-panel"]')),
      // The site header spans the page's width: where the page ends.
      page: rect(document.querySelector("body > header, header")),
      viewport: { width: document.documentElement.clientWidth, height: window.innerHeight },
    };
  });

test("each open_mode opens as it says; a sidebar, left or right, leaves no gap and no overlap", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await createAccount(page.context().request, newAccount("chat-modes"));
  for (const mode of ["widget", "fullscreen", "sidebar_left", "sidebar_right"] as const) {
    await openPage(page, `/paciente?open_mode=${mode}`);
    await expect(panel(page)).toHaveAttribute("data-layout", mode);
    await expect(room(page).getByRole("heading", { name: "Dentista Virtual IA" })).toBeVisible();
    // The layout is measured once the gap fix (150 ms) has run: polled, not slept.
    await expect
      .poll(async () => {
        const { panel: box, page: shell, viewport } = await boxes(page);
        switch (mode) {
          case "widget":
            return [r(box.width), r(viewport.width - box.right), r(viewport.height - box.bottom)];
          case "fullscreen":
            return [r(box.left), r(box.top), r(box.bottom - viewport.height)];
          case "sidebar_left":
            return [
              r(box.left),
              r(box.width),
              r(box.bottom - box.top - viewport.height),
              r(shell.left - box.right),
            ];
          case "sidebar_right":
            return [
              r(viewport.width - box.right),
              r(box.width),
              r(box.bottom - box.top - viewport.height),
              r(box.left - shell.right),
            ];
        }
      })
      .toEqual(
        {
          widget: [450, 20, 20],
          fullscreen: [0, 0, 0],
          sidebar_left: [0, 450, 0, 0],
          sidebar_right: [0, 450, 0, 0],
        }[mode],
      );
  }

  // The room's sidebar button, by keyboard: right → none (the page gets its width back) → left → right.
  const sidebarButton = room(page).getByRole("button", { name: "Mover a un costado" });
  await sidebarButton.focus();
  await page.keyboard.press("Enter");
  await expect(panel(page)).toHaveAttribute("data-layout", "widget");
  await expect
    .poll(async () => {
      const { page: shell, viewport } = await boxes(page);
      return [Math.round(shell.left), Math.round(shell.right) - viewport.width];
    })
    .toEqual([0, 0]);
  await sidebarButton.focus();
  await page.keyboard.press("Enter");
  await expect(panel(page)).toHaveAttribute("data-layout", "sidebar_left");
  await expect
    .poll(async () => {
      const { panel: box, page: shell } = await boxes(page);
      return Math.round(shell.left - box.right);
    })
    .toBe(0);
  await sidebarButton.focus();
  await page.keyboard.press("Enter");
  await expect(panel(page)).toHaveAttribute("data-layout", "sidebar_right");
  await expect
    .poll(async () => {
      const { panel: box, page: shell } = await boxes(page);
      return [Math.round(shell.left), Math.round(box.left - shell.right)];
    })
    .toEqual([0, 0]);
  const { ids, report } = await blockingViolations(page);
  expect(ids, report).toEqual([]);

  // Closed, the page is whole again.
  await room(page).getByRole("button", { name: "Cerrar chat" }).click();
  await expect(panel(page)).toHaveCount(0);
  const { page: shell, viewport } = await boxes(page);
  expect([Math.round(shell.left), Math.round(shell.right)]).toEqual([0, viewport.width]);
});

test("the compact bar hides while the page scrolls and is back 600 ms after it stops", async ({ page }) => {
  // Short enough that the portal's home scrolls.
  await page.setViewportSize({ width: 1280, height: 560 });
  await createAccount(page.context().request, newAccount("chat-scroll"));
  await openPage(page, "/paciente");
  await expect(bar(page)).toBeVisible();
  // Records, in the page, the last scroll and when the bar showed again.
  await page.evaluate(() => {
    const state = { lastScroll: 0, shownAt: 0, hiddenSeen: false };
    (window as unknown as { chatScroll: typeof state }).chatScroll = state;
    window.addEventListener("scroll", () => (state.lastScroll = performance.now()), { passive: true });
    const form = document.querySelector('form[role="search"]')!;
    new MutationObserver(() => {
      if (form.getAttribute("data-scroll-hidden") === "true") state.hiddenSeen = true;
      else state.shownAt = performance.now();
    }).observe(form, { attributes: true, attributeFilter: ["data-scroll-hidden"] });
  });
  // Scroll for about half a second with the wheel, as a person would.
  for (let step = 0; step < 6; step += 1) await page.mouse.wheel(0, 60);
  await expect(bar(page)).toBeHidden();
  await expect(bar(page)).toBeVisible();
  const timing = await page.evaluate(
    () =>
      (window as unknown as { chatScroll: { lastScroll: number; shownAt: number; hiddenSeen: boolean } })
        .chatScroll,
  );
  expect(timing.hiddenSeen).toBe(true);
  const after = timing.shownAt - timing.lastScroll;
  expect(after).toBeGreaterThanOrEqual(590);
  expect(after).toBeLessThan(1500);

  // While someone is typing in the bar it stays, however the page scrolls.
  await bar(page).getByRole("textbox").focus();
  await page.evaluate(() => window.scrollBy(0, -120));
  await page.evaluate(() => window.scrollBy(0, 60));
  await expect(bar(page)).toHaveAttribute("data-scroll-hidden", "false");
  await expect(bar(page)).toBeVisible();
});
