import { sql } from "drizzle-orm";
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
 * (the partial unique index `freed_slots_one_open`). A time freed again while its row is still open (it was booked
 * the ordinary way before the job's next look, then freed once more) is a new freeing of that row: its next batch
 * is due at once, its freer is the new one (never offered it), its end, reason and source are the new freeing's;
 * who was already offered it stays offered (their links still work, and the booking decides between claims).
 * Answers whether a row was written.
 */
export async function recordFreedSlot(
  tx: Pick<Database, "insert">,
  slot: FreedSlotInput,
  now: Date = new Date(),
): Promise<boolean> {
  if (!isFarEnoughToOffer(slot.startsAt, now)) return false;
  const written = await tx
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
    .onConflictDoUpdate({
      target: [freedSlots.dentistId, freedSlots.startsAt],
      // The index's own predicate (schema/waitlist.ts), so that PostgreSQL infers `freed_slots_one_open`.
      targetWhere: sql`${freedSlots.status} = 'abierta'`,
      set: {
        endsAt: sql`excluded.ends_at`,
        reason: sql`excluded.reason`,
        sourceAppointmentId: sql`excluded.source_appointment_id`,
        freedByPatientId: sql`excluded.freed_by_patient_id`,
        nextBatchAt: sql`least(${freedSlots.nextBatchAt}, excluded.next_batch_at)`,
      },
    })
    .returning({ id: freedSlots.id });
  return written.length > 0;
}
