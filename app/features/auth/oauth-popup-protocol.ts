/** The Google popup flow (ADR 004), with the clinic's specified sizes and timings. Client-safe, pure. */

export const POPUP_WIDTH = 500;
export const POPUP_HEIGHT = 600;
export const POPUP_CLOSED_POLL_MS = 1_000;
export const POPUP_TIMEOUT_MS = 300_000;
export const POPUP_WINDOW_NAME = "clinica-google-auth";

/** `oauth_two_factor`: Google is done but the account has two-factor: the code step comes next, in the opener. */
export type OAuthPopupMessage =
  { type: "oauth_success" } | { type: "oauth_two_factor" } | { type: "oauth_error"; error: string };

/** Only these shapes are accepted from the popup; anything else is ignored. */
export function parseOAuthPopupMessage(data: unknown): OAuthPopupMessage | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const record = data as Record<string, unknown>;
  if (record.type === "oauth_success" && Object.keys(record).length === 1) return { type: "oauth_success" };
  if (record.type === "oauth_two_factor" && Object.keys(record).length === 1)
    return { type: "oauth_two_factor" };
  if (record.type === "oauth_error" && typeof record.error === "string" && record.error.length <= 200) {
    return { type: "oauth_error", error: record.error };
  }
  return null;
}

/** Accepts a message only from our own origin and from the very popup we opened (any page may post to this window). */
export function acceptPopupEvent(
  event: Pick<MessageEvent, "origin" | "source" | "data">,
  expectedOrigin: string,
  popup: unknown,
): OAuthPopupMessage | null {
  if (event.origin !== expectedOrigin || event.source !== popup) return null;
  return parseOAuthPopupMessage(event.data);
}

/** The popup's features string, centred on the opener's window. */
export function popupFeatures(screen: {
  screenX: number;
  screenY: number;
  outerWidth: number;
  outerHeight: number;
}) {
  const left = Math.max(0, Math.round(screen.screenX + (screen.outerWidth - POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round(screen.screenY + (screen.outerHeight - POPUP_HEIGHT) / 2));
  return `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`;
}
