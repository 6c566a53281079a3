/**
 * The test dashboard's WhatsApp send: the same two messages a new lead triggers, through the real outbox. Pure.
 *
 * A send queues two messages (the advisor notice, then the patient's confirmation) and is "sending" until both are
 * accepted by the provider, or one has failed for good.
 */
import type { WhatsAppMessageStatus } from "./whatsapp-message-status";

export type TestSendProgress = "sending" | "success" | "error";

const ACCEPTED: ReadonlySet<WhatsAppMessageStatus> = new Set(["accepted", "delivered", "read"]);

/** Where a send stands given its messages' statuses: any failure is an error, all accepted (or later) a success. */
export function testSendProgress(statuses: readonly string[]): TestSendProgress {
  if (statuses.length === 0) return "sending";
  if (statuses.includes("failed")) return "error";
  return statuses.every((status) => ACCEPTED.has(status as WhatsAppMessageStatus)) ? "success" : "sending";
}

/**
 * Test mode of one send: the card's toggle, but always on while the clinic itself is in test mode (no API key, or
 * WHATSAPP_TEST_MODE=1), whatever the browser posted.
 */
export function effectiveTestMode(requested: boolean, clinicTestMode: boolean): boolean {
  return requested || clinicTestMode;
}

/**
 * WhatsApp lives on mobiles: a Chilean number (E.164) reaches WhatsApp only when it is a mobile (+56 9 …). A
 * landline (+56 2 …, regional area codes) is a valid lead phone but cannot receive the patient's message.
 * Numbers of other countries are left to the provider.
 */
export function reachableOnWhatsApp(e164: string): boolean {
  if (!e164.startsWith("+56")) return true;
  return /^\+569\d{8}$/.test(e164);
}
