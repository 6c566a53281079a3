import type { Database } from "~/db/client.server";
import { freedSlots } from "~/db/schema";
import { isFarEnoughToOffer, type FreedSlotReason } from "~/domain/waitlist";

export interface FreedSlotInput {
  dentistId: string;
  startsAt: Date;
  endsAt: Date;
  reason: FreedSlotReason;
  sourceAppointmentId: string | null;
  /** The patient whose cancellation, move or unpaid hold freed it: never offered it back. */
  freedByPatientId: string | null;
}

/**
 * Records a slot that has just become free, in the transaction that frees it (issue 23, ADR 040), for the waitlist
 * job to offer. Only a slot still far enough ahead to be offered is recorded; one open row per dentist and start
 * (the partial unique index `freed_slots_one_open`): a second freeing of the same time while it is still open adds
 * nothing. Answers whether a row was written.
 */
export async function recordFreedSlot(
  tx: Pick<Database, "insert">,
  slot: FreedSlotInput,
  now: Date = new Date(),
): Promise<boolean> {
  if (!isFarEnoughToOffer(slot.startsAt, now)) return false;
  const inserted = await tx
    .insert(freedSlots)
    .values({
      dentistId: slot.dentistId,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      reason: slot.reason,
      sourceAppointmentId: slot.sourceAppointmentId,
      freedByPatientId: slot.freedByPatientId,
      nextBatchAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: freedSlots.id });
  return inserted.length > 0;
}
