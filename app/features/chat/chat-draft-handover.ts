/**
 * The compact bar's text travels to the room page (issue 24, item 4) in the iframe URL's fragment: a fragment is
 * never sent to a server, so what the person typed stays out of request logs (DESIGN §6). Client-safe and pure.
 */

export interface DraftHandover {
  text: string;
  send: boolean;
}

/** Longest text carried (the composer's own limit is the server's; this only bounds the URL). */
const MAX_DRAFT = 2000;

/** `#draft=…&send=1` for the room's URL, or "" when there is nothing to carry. */
export function draftFragment(draft: DraftHandover | null | undefined): string {
  const text = draft?.text.trim().slice(0, MAX_DRAFT);
  if (!text) return "";
  const params = new URLSearchParams({ draft: text });
  if (draft?.send) params.set("send", "1");
  return `#${params.toString()}`;
}

/** The handover in a room page's fragment, or null. */
export function readDraftFragment(hash: string): DraftHandover | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const text = params.get("draft")?.trim().slice(0, MAX_DRAFT);
  if (!text) return null;
  return { text, send: params.get("send") === "1" };
}
