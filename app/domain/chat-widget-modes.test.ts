import { describe, expect, it } from "vitest";
import {
  CHAT_MODE_ERRORS,
  CHAT_OPEN_MODES,
  chatFailureMessage,
  initialLayout,
  nextSidebar,
  pageInset,
  parseOpenMode,
  resolveChatTarget,
  SCROLL_HIDE_DELAY_MS,
  SIDEBAR_GAP_FIX_MS,
  type ChatSidebar,
} from "./chat-widget-modes";

// Issue 24, item 20: room mode, open_mode, the scroll-hide delay and the sidebar gap fix (spec 001 §3–§4, §9).

describe("the widget's timings", () => {
  it("are the spec's: scroll hide 600 ms, sidebar gap fix 150 ms", () => {
    expect(SCROLL_HIDE_DELAY_MS).toBe(600);
    expect(SIDEBAR_GAP_FIX_MS).toBe(150);
  });
});

describe("open_mode", () => {
  it("accepts exactly the spec's four values", () => {
    expect(CHAT_OPEN_MODES).toEqual(["widget", "fullscreen", "sidebar_left", "sidebar_right"]);
    for (const mode of CHAT_OPEN_MODES) expect(parseOpenMode(mode)).toBe(mode);
    for (const other of ["", "Fullscreen", "sidebar", "left", "sidebar_top", null, undefined, 3, ["widget"]])
      expect(parseOpenMode(other)).toBeNull();
  });

  it.each([
    ["widget", { fullscreen: false, sidebar: "none" }],
    ["fullscreen", { fullscreen: true, sidebar: "none" }],
    ["sidebar_left", { fullscreen: false, sidebar: "left" }],
    ["sidebar_right", { fullscreen: false, sidebar: "right" }],
    [null, { fullscreen: false, sidebar: "none" }],
  ] as const)("%s opens as %j", (mode, layout) => {
    expect(initialLayout(mode)).toEqual(layout);
  });
});

describe("the sidebar cycle", () => {
  it("goes none → left → right → none", () => {
    const seen: ChatSidebar[] = ["none"];
    for (let step = 0; step < 3; step += 1) seen.push(nextSidebar(seen.at(-1)!));
    expect(seen).toEqual(["none", "left", "right", "none"]);
  });
});

describe("pageInset", () => {
  const desk = { fullscreen: false, mobile: false };
  it("leaves exactly the panel's width on its side, rounded up so no pixel of page shows under it", () => {
    expect(pageInset("left", 450, desk)).toEqual({ left: 450, right: 0 });
    expect(pageInset("right", 450, desk)).toEqual({ left: 0, right: 450 });
    expect(pageInset("right", 449.5, desk)).toEqual({ left: 0, right: 450 });
  });
  it("leaves nothing for a floating, full-screen or phone panel, or one not measured yet", () => {
    expect(pageInset("none", 450, desk)).toEqual({ left: 0, right: 0 });
    expect(pageInset("left", 450, { fullscreen: true, mobile: false })).toEqual({ left: 0, right: 0 });
    expect(pageInset("right", 450, { fullscreen: false, mobile: true })).toEqual({ left: 0, right: 0 });
    expect(pageInset("right", 0, desk)).toEqual({ left: 0, right: 0 });
    expect(pageInset("right", Number.NaN, desk)).toEqual({ left: 0, right: 0 });
  });
});

describe("resolveChatTarget", () => {
  it("agent mode needs an agent id; room mode a room id (the spec's messages)", () => {
    expect(resolveChatTarget({ agentId: "dentist-bot" })).toEqual({
      ok: true,
      target: { mode: "agent", agentId: "dentist-bot" },
    });
    expect(resolveChatTarget({ mode: "agent", agentId: " " })).toEqual({
      ok: false,
      error: "Agent ID is required for agent mode",
    });
    expect(resolveChatTarget({ mode: "room", roomId: "r-1", agentId: "dentist-bot" })).toEqual({
      ok: true,
      target: { mode: "room", roomId: "r-1" },
    });
    expect(resolveChatTarget({ mode: "room", agentId: "dentist-bot" })).toEqual({
      ok: false,
      error: "Room ID is required for room mode",
    });
    expect(resolveChatTarget({ mode: "sala", roomId: "r-1" })).toEqual({
      ok: false,
      error: CHAT_MODE_ERRORS.unknownMode,
    });
    expect(CHAT_MODE_ERRORS.unknownMode).toBe("Unknown mode or missing required props");
  });
});

describe("chatFailureMessage", () => {
  it("speaks Spanish, and says the same for a room that is missing and one that is not the guest's", () => {
    expect(chatFailureMessage("room", 404)).toMatch(/No encontramos esa conversación/);
    expect(chatFailureMessage("agent", 500)).toBe("No pudimos conectar con el chat. Vuelve a intentarlo.");
    expect(chatFailureMessage(null, null)).toMatch(/^No pudimos abrir el chat/);
    for (const status of [null, 0, 401, 404, 429, 500])
      expect(chatFailureMessage("agent", status)).not.toMatch(/HTTP|not found|required/i);
  });
});
