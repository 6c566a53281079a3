import type { Database } from "~/db/client.server";
import {
  isReminderDue,
  MIN_REMINDER_LEAD_HOURS,
  REMINDER_LOOKAHEAD_HOURS,
  reminderKey,
} from "~/domain/reminder-schedule";
import { REMINDER_TEMPLATE_NAME, reminderPlaceholders } from "~/domain/reminder-message";
import { accountSubject, mayContact } from "~/features/consent/consent-service.server";
import { enqueueWhatsApp } from "~/features/messaging/whatsapp-outbox.server";
import { WhatsAppInputError } from "~/integrations/whatsapp/whatsapp-client.server";
import { publicBaseUrl } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { hashActionToken, newActionToken } from "./action-tokens.server";
import { appointmentLinkPath } from "./appointment-link-types";
import {
  claimReminder,
  insertActionTokens,
  lockReminderTarget,
  reminderCandidates,
  setReminderMessage,
} from "./reminder-repository.server";

const HOUR_MS = 3_600_000;
const BATCH = 100;
/** At most this many batches per run; the next run (a minute later at most) picks up the rest. */
const MAX_BATCHES = 20;

export interface ReminderOptions {
  /** Where the links point (default: PUBLIC_BASE_URL). */
  baseUrl?: string;
}

/**
 * Queues the WhatsApp reminder of every appointment that is due at `now` (app/domain/reminder-schedule.ts) and was
 * not reminded for its current start yet: one template message to the patient (with their consent and a phone) with
 * two single-use links, 'Confirmar' and 'Cancelar'. Safe to run from several workers or instances at once: each
 * appointment is claimed in the transaction that queues its message (its row is locked, then its reminder row is
 * inserted once per start time), and the outbox's idempotency key is the appointment and its start. Answers how
 * many reminders this call queued.
 */
export async function queueDueReminders(
  db: Database,
  now = new Date(),
  options: ReminderOptions = {},
): Promise<number> {
  const baseUrl = (options.baseUrl ?? publicBaseUrl()).replace(/\/+$/, "");
  const from = new Date(now.getTime() + MIN_REMINDER_LEAD_HOURS * HOUR_MS);
  const to = new Date(now.getTime() + REMINDER_LOOKAHEAD_HOURS * HOUR_MS);
  let queued = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const candidates = await reminderCandidates(db, from, to, BATCH);
    // Earliest first: once one is not due yet, the later ones are not either.
    const due = candidates.filter((candidate) => isReminderDue(candidate, now));
    for (const candidate of due) {
      if (await queueReminder(db, candidate.id, now, baseUrl)) queued += 1;
    }
    if (candidates.length < BATCH || due.length < candidates.length || due.length === 0) break;
  }
  if (queued > 0) logger.info({ queued }, "appointment reminders queued");
  return queued;
}

async function queueReminder(db: Database, appointmentId: string, now: Date, baseUrl: string) {
  return db.transaction(async (tx) => {
    const target = await lockReminderTarget(tx, appointmentId);
    // Read again under the lock: the appointment may have been cancelled or moved, the consent withdrawn.
    if (!target || !isReminderDue(target, now)) return false;
    if (!target.whatsappOptInAt || !target.phone || target.deactivatedAt) return false;
    // The ledger decides (ADR 037): a withdrawn consent or a block stops the reminder; the handler asks again at send.
    const subject = await accountSubject(tx, target.patientId);
    if (!(await mayContact(tx, subject, "recordatorios_whatsapp", { now })).allowed) return false;
    if (!(await claimReminder(tx, appointmentId, target.startsAt))) return false;

    const tokens = { confirm: newActionToken(), cancel: newActionToken() };
    let messageId: string | null;
    try {
      messageId = await enqueueWhatsApp(tx, {
        purpose: "reminder",
        to: target.phone,
        template: {
          name: REMINDER_TEMPLATE_NAME,
          placeholders: reminderPlaceholders({
            firstName: target.firstName,
            startsAt: target.startsAt,
            confirmUrl: `${baseUrl}${appointmentLinkPath("confirm", tokens.confirm)}`,
            cancelUrl: `${baseUrl}${appointmentLinkPath("cancel", tokens.cancel)}`,
          }),
        },
        appointmentId,
        userId: target.patientId,
        idempotencyKey: reminderKey(appointmentId, target.startsAt),
      });
    } catch (error) {
      if (!(error instanceof WhatsAppInputError)) throw error;
      // The claim stays, so the job does not retry a number WhatsApp cannot take every minute.
      logger.warn({ appointmentId }, "reminder not queued: not a WhatsApp number");
      return false;
    }
    if (!messageId) return false;
    await insertActionTokens(
      tx,
      (["confirm", "cancel"] as const).map((action) => ({
        appointmentId,
        action,
        tokenHash: hashActionToken(tokens[action]),
        expiresAt: target.startsAt,
      })),
    );
    await setReminderMessage(tx, appointmentId, target.startsAt, messageId);
    return true;
  });
}
