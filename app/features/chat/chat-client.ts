import { CHAT_MODE_ERRORS } from "~/domain/chat-widget-modes";
import { storedTokens, storeTokens, type ChatTokens } from "./chat-token-storage";

/**
 * The widget's client for the guest chat platform (/api/chat/, routes.ts): every call has a 30 s timeout, a failure
 * throws the server's `detail` or 'HTTP {status}'; tokens are kept per account id in the browser
 * (chat-token-storage.ts). Client-safe.
 */
export const CHAT_REQUEST_TIMEOUT_MS = 30_000;
export const TOKEN_PUSH_INTERVAL_MS = 30_000;
export const MOBILE_MAX_WIDTH = 768;
export const MOBILE_MAX_HEIGHT = 600;
export const VIEWPORT_MARGIN_X = 40;
export const VIEWPORT_MARGIN_Y = 100;

/** The widget's defaults, as the chat platform's widget documents them (the product uses bottom-right). */
export const WIDGET_DEFAULTS = {
  width: 350,
  roomWidth: 450,
  roomHeight: 600,
  borderRadius: 16,
  position: "bottom-right",
  offset: 20,
  primaryColor: "#DC2626",
  backgroundColor: "#000000",
  backgroundBlur: true,
  inlineHeight: 500,
} as const;

/** The iframe ↔ parent message types of the widget's postMessage protocol (names as the platform has them). */
export const CHAT_MESSAGE_TYPES = [
  "request_guest_auth",
  "guest_auth_response",
  "new_access_token",
  "token_refresh_request",
  "refresh_token",
  "widget_close_request",
  "widget_fullscreen_request",
  "widget_sidebar_request",
  "websocket_status",
  "auth_error",
  "mobile_mode_status",
  "activate_interface_parenthood",
] as const;
export type ChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];

export interface FrameMessage {
  type: ChatMessageType;
  [key: string]: unknown;
}

/** A payload from the other window is only accepted if it has one of the protocol's types. */
export function parseFrameMessage(data: unknown): FrameMessage | null {
  if (!data || typeof data !== "object") return null;
  const type = (data as { type?: unknown }).type;
  return typeof type === "string" && (CHAT_MESSAGE_TYPES as readonly string[]).includes(type)
    ? (data as FrameMessage)
    : null;
}

export const CHAT_ERRORS = {
  ...CHAT_MODE_ERRORS,
  noRefreshToken: "No refresh token available",
  refreshFailed: (status: number) => `Token refresh failed: ${status}`,
  timeout: (ms: number) => `Request timeout after ${ms}ms`,
  http: (status: number) => `HTTP ${status}`,
} as const;

export function isMobileViewport(width: number, height: number): boolean {
  return width <= MOBILE_MAX_WIDTH || height <= MOBILE_MAX_HEIGHT;
}

export class ChatApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function chatRequest<T>(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CHAT_REQUEST_TIMEOUT_MS);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  try {
    const response = await fetch(`${baseUrl}/api/chat/${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "include",
      signal: controller.signal,
    });
    const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
    if (!response.ok) {
      const detail = typeof body?.detail === "string" ? body.detail : CHAT_ERRORS.http(response.status);
      throw new ChatApiError(detail, response.status);
    }
    return body as T;
  } catch (error) {
    if (controller.signal.aborted) throw new ChatApiError(CHAT_ERRORS.timeout(CHAT_REQUEST_TIMEOUT_MS), 0);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

export async function refreshTokens(baseUrl: string, accountId: string): Promise<ChatTokens> {
  const current = storedTokens(accountId);
  if (!current?.refresh_token) throw new ChatApiError(CHAT_ERRORS.noRefreshToken, 0);
  try {
    const tokens = await chatRequest<ChatTokens>(baseUrl, "guest/token/refresh", {
      method: "POST",
      body: { refresh_token: current.refresh_token, jid: false },
    });
    storeTokens(accountId, tokens);
    return tokens;
  } catch (error) {
    storeTokens(accountId, null);
    const status = error instanceof ChatApiError ? error.status : 0;
    throw new ChatApiError(CHAT_ERRORS.refreshFailed(status), status);
  }
}

/** Applies one agent-delta: a piece at the draft's end grows it; `done` (or a missed piece's gap) ends it. */
export function applyDelta(
  drafts: Record<string, string>,
  event: { id: string; offset?: number; delta?: string; done?: boolean },
): Record<string, string> {
  if (event.done) return withoutDraft(drafts, event.id);
  const text = drafts[event.id] ?? "";
  if (event.offset !== text.length || !event.delta) return drafts;
  return { ...drafts, [event.id]: text + event.delta };
}

export function withoutDraft(drafts: Record<string, string>, id: string): Record<string, string> {
  if (!(id in drafts)) return drafts;
  const { [id]: _gone, ...rest } = drafts;
  return rest;
}

/** A 429's Retry-After (seconds) as a pause in ms, kept between 1 s and 1 min; `fallback` when it is missing. */
export function retryAfterMs(header: string | null, fallback: number): number {
  const seconds = Number(header);
  if (!header || !Number.isFinite(seconds)) return fallback;
  return Math.min(Math.max(seconds, 1), 60) * 1000;
}
