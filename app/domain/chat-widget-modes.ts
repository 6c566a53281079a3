/**
 * The chat widget's modes and layouts (spec 001 §3–§4, §9; issue 24, item 20): which conversation the panel opens
 * (agent mode or room mode), how it opens (open_mode), the sidebar cycle, and the room the page leaves for a
 * sidebar. Pure and client-safe; the widget's timings live here so they have one source.
 */

/** spec: "Scroll hide delay 600 ms": the compact bar comes back this long after the page stops scrolling. */
export const SCROLL_HIDE_DELAY_MS = 600;
/** spec: "Sidebar gap fix after 150 ms": the page's room for a sidebar is measured again once it has settled. */
export const SIDEBAR_GAP_FIX_MS = 150;

/** spec: "Initial open_mode values: widget, fullscreen, sidebar_left, sidebar_right". */
export const CHAT_OPEN_MODES = ["widget", "fullscreen", "sidebar_left", "sidebar_right"] as const;
export type ChatOpenMode = (typeof CHAT_OPEN_MODES)[number];

export type ChatSidebar = "none" | "left" | "right";

/** An open_mode from a query or a prop; anything else is no mode (the caller's default applies). */
export function parseOpenMode(value: unknown): ChatOpenMode | null {
  return typeof value === "string" && (CHAT_OPEN_MODES as readonly string[]).includes(value)
    ? (value as ChatOpenMode)
    : null;
}

/** How the panel first shows for an open_mode: floating (widget), the whole window, or docked to one side. */
export function initialLayout(mode: ChatOpenMode | null | undefined): {
  fullscreen: boolean;
  sidebar: ChatSidebar;
} {
  switch (mode) {
    case "fullscreen":
      return { fullscreen: true, sidebar: "none" };
    case "sidebar_left":
      return { fullscreen: false, sidebar: "left" };
    case "sidebar_right":
      return { fullscreen: false, sidebar: "right" };
    default:
      return { fullscreen: false, sidebar: "none" };
  }
}

/** The room's sidebar button cycles none → left → right → none (spec 001 §2). */
export function nextSidebar(current: ChatSidebar): ChatSidebar {
  return current === "none" ? "left" : current === "left" ? "right" : "none";
}

/**
 * The space the page leaves beside a docked panel, in px: exactly the panel's measured width on its side, so the
 * page ends where the panel begins (no gap, no overlap). Nothing when the panel is not a sidebar on the screen:
 * floating, full screen, or on a phone (where the panel fills the screen anyway).
 */
export function pageInset(
  sidebar: ChatSidebar,
  panelWidth: number,
  options: { fullscreen: boolean; mobile: boolean },
): { left: number; right: number } {
  if (sidebar === "none" || options.fullscreen || options.mobile || !(panelWidth > 0))
    return { left: 0, right: 0 };
  const width = Math.ceil(panelWidth);
  return sidebar === "left" ? { left: width, right: 0 } : { left: 0, right: width };
}

/** The spec's developer errors of the chat panel (§8), verbatim. */
export const CHAT_MODE_ERRORS = {
  agentRequired: "Agent ID is required for agent mode",
  roomRequired: "Room ID is required for room mode",
  unknownMode: "Unknown mode or missing required props",
} as const;

export type ChatTarget = { mode: "agent"; agentId: string } | { mode: "room"; roomId: string };

/**
 * What the panel opens: a conversation with the agent (agent mode needs an agent id) or an existing room (room mode
 * needs a room id). The room id is only a request: the server decides whether this guest may open it.
 */
export function resolveChatTarget(props: {
  mode?: string | null;
  agentId?: string | null;
  roomId?: string | null;
}): { ok: true; target: ChatTarget } | { ok: false; error: string } {
  const agentId = props.agentId?.trim();
  const roomId = props.roomId?.trim();
  switch (props.mode ?? "agent") {
    case "agent":
      return agentId
        ? { ok: true, target: { mode: "agent", agentId } }
        : { ok: false, error: CHAT_MODE_ERRORS.agentRequired };
    case "room":
      return roomId
        ? { ok: true, target: { mode: "room", roomId } }
        : { ok: false, error: CHAT_MODE_ERRORS.roomRequired };
    default:
      return { ok: false, error: CHAT_MODE_ERRORS.unknownMode };
  }
}

/**
 * What the person reads when the panel fails (the developer's message goes to the error callback): Spanish, and
 * the same for a room that does not exist and one that is not theirs.
 */
export function chatFailureMessage(target: ChatTarget["mode"] | null, status: number | null): string {
  if (target === null) return "No pudimos abrir el chat. Vuelve a cargar la página o inténtalo más tarde.";
  if (target === "room" && status === 404)
    return "No encontramos esa conversación en tu cuenta. Pide un enlace nuevo a la clínica.";
  if (status === 401) return "Tu sesión del chat terminó. Vuelve a intentarlo.";
  if (status === 429) return "Hay demasiadas solicitudes seguidas. Espera un momento y vuelve a intentarlo.";
  return "No pudimos conectar con el chat. Vuelve a intentarlo.";
}
