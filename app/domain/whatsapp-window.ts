/**
 * WhatsApp's customer-care window (ADR 020; Meta/Infobip "Sending free-form messages"):
 * free text may go to a person only within 24 hours of their last message to the clinic's number; outside it only
 * an approved template may. Pure: the caller gives the recipient's last inbound time and the clock.
 */

export const CUSTOMER_CARE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Whether free text may go to a recipient whose last inbound message was at `lastInboundAt` (null: never). */
export function customerCareWindowOpen(lastInboundAt: Date | null | undefined, now: Date): boolean {
  if (!lastInboundAt) return false;
  return now.getTime() - lastInboundAt.getTime() < CUSTOMER_CARE_WINDOW_MS;
}

export type WhatsAppSendKind = "text" | "template";

/**
 * What a message goes out as, decided when it is sent: the free text inside the window, the template outside it
 * (or when there is no text at all, as reminders); null when the window is closed and there is no template, which
 * the provider would refuse.
 */
export function chooseSendKind(
  message: { hasText: boolean; hasTemplate: boolean },
  windowOpen: boolean,
): WhatsAppSendKind | null {
  if (message.hasText && windowOpen) return "text";
  if (message.hasTemplate) return "template";
  return null;
}
