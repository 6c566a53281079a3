/**
 * The life of an outbound WhatsApp message: queued (in the outbox) → accepted (by the provider) → delivered (to
 * the handset) → read (seen report). `failed` ends it: refused when sent, or undeliverable in a delivery report.
 * Reports only move a message forward, so a replayed or late report changes nothing.
 */
export const whatsAppMessageStatuses = ["queued", "accepted", "delivered", "read", "failed"] as const;
export type WhatsAppMessageStatus = (typeof whatsAppMessageStatuses)[number];

const order: Record<Exclude<WhatsAppMessageStatus, "failed">, number> = {
  queued: 0,
  accepted: 1,
  delivered: 2,
  read: 3,
};

/** The statuses a message may be in for `target` to be a step forward (failed is final; read ends the line). */
export function statusesBefore(target: WhatsAppMessageStatus): WhatsAppMessageStatus[] {
  if (target === "failed") return ["queued", "accepted"];
  const rank = order[target];
  return (Object.keys(order) as Array<keyof typeof order>).filter((status) => order[status] < rank);
}

/** Status groups of a delivery report (Infobip "Response status and error codes") that mean it never arrived. */
const failedGroups = new Set(["REJECTED", "UNDELIVERABLE", "EXPIRED"]);

/** What a delivery report's status group says: delivered, failed, or nothing new yet (PENDING and the like). */
export function deliveryReportOutcome(groupName: string): "delivered" | "failed" | null {
  const group = groupName.toUpperCase();
  if (group === "DELIVERED") return "delivered";
  if (failedGroups.has(group)) return "failed";
  return null;
}
