import type { Database } from "~/db/client.server";
import { FORMS_PATH } from "~/domain/forms";
import {
  earlyReminderTemplate,
  REMINDER_TEMPLATE_NAME,
  reminderPlaceholders,
  sameDayReminderPlaceholders,
} from "~/domain/reminder-message";
import {
  planReminderSequence,
  reminderStepKey,
  reminderSteps,
  SEQUENCE_LOOKAHEAD_HOURS,
  type ReminderSequenceSettings,
  type ReminderStep,
} from "~/domain/reminder-sequence";
import { templateContent } from "~/domain/whatsapp-templates";
import { accountSubject, mayContact } from "~/features/consent/consent-service.server";
import { enqueueWhatsApp } from "~/features/messaging/whatsapp-outbox.server";
import { WhatsAppInputError } from "~/integrations/whatsapp/whatsapp-client.server";
import { clinicFacts, publicBaseUrl } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { hashActionToken, newActionToken } from "./action-tokens.server";
import { appointmentLinkPath } from "./appointment-link-types";
import {
  claimReminderStep,
  hasPendingForms,
  insertActionTokens,
  lockReminderTarget,
  sequenceCandidates,
  setReminderStepMessage,
  setReminderStepSkipped,
} from "./reminder-repository.server";
import { countRemindersQueued } from "~/lib/metrics.server";
import { reminderSequenceSettings } from "./reminder-settings-service.server";

const HOUR_MS = 3_600_000;
/** Candidates read per query; a pass pages through all of them. */
const PAGE = 2_000;
/**
 * A pass handles at most this many appointments with something to do (each one short transaction): about a second
 * on the embedded database, so a backlog (a fresh start, an outage) never holds its one connection for long; the
 * next run, 30 seconds later, takes the rest (36,000 an hour). A pass with nothing to do reads 10,000 appointments in
 * about 0.35 s (ADR 039).
 */
const MAX_ACTIONS_PER_PASS = 300;

export interface ReminderOptions {
  /** Where the links point (default: PUBLIC_BASE_URL). */
  baseUrl?: string;
  /** The clinic's sequence (default: read from its settings). */
  settings?: ReminderSequenceSettings;
}

export interface ReminderPassResult {
  /** Messages queued. */
  queued: number;
  /** Steps recorded as skipped (covered by a later one, confirmed, too late, no consent…). */
  skipped: number;
}

/**
 * Handles every step of the reminder sequence (ADR 039, app/domain/reminder-sequence.ts) that is due at `now`:
 * queues the step's WhatsApp template (with the patient's consent in the ledger and a phone), or records why it is
 * skipped. Safe to run from several workers or instances at once: each step is claimed in the transaction that
 * queues its message (the appointment's row is locked, then its step row is inserted once per start and step), and
 * the outbox's idempotency key is the appointment, its start and the step. One read pages through the appointments
 * starting in the next `SEQUENCE_LOOKAHEAD_HOURS` that have a step left; only those with something to do now open a
 * transaction. Answers how many messages this call queued.
 */
export async function queueDueReminders(
  db: Database,
  now = new Date(),
  options: ReminderOptions = {},
): Promise<number> {
  return (await runReminderPass(db, now, options)).queued;
}

export async function runReminderPass(
  db: Database,
  now = new Date(),
  options: ReminderOptions = {},
): Promise<ReminderPassResult> {
  const baseUrl = (options.baseUrl ?? publicBaseUrl()).replace(/\/+$/, "");
  const settings = options.settings ?? (await reminderSequenceSettings(db));
  const enabled = reminderSteps.filter((step) => settings[step]);
  const result: ReminderPassResult = { queued: 0, skipped: 0 };
  if (enabled.length === 0) return result;
  const window = { from: now, to: new Date(now.getTime() + SEQUENCE_LOOKAHEAD_HOURS * HOUR_MS) };
  let after: { startsAt: Date; id: string } | undefined;
  let actions = 0;
  for (;;) {
    const candidates = await sequenceCandidates(db, window, enabled, PAGE, after);
    for (const candidate of candidates) {
      const handled = new Set(candidate.handled);
      const todo = planReminderSequence(settings, candidate, now).filter(
        (decision) => decision.action !== "wait" && !handled.has(decision.step),
      );
      if (todo.length === 0) continue;
      const outcome = await handleSteps(db, candidate.id, settings, now, baseUrl);
      result.queued += outcome.queued;
      result.skipped += outcome.skipped;
      actions += 1;
      if (actions >= MAX_ACTIONS_PER_PASS) break;
    }
    if (candidates.length < PAGE || actions >= MAX_ACTIONS_PER_PASS) break;
    const last = candidates.at(-1)!;
    after = { startsAt: last.startsAt, id: last.id };
  }
  if (result.queued > 0 || result.skipped > 0) logger.info(result, "reminder steps handled");
  return result;
}

/** The steps of one appointment that are due, under its row's lock: read again, since it may have changed. */
async function handleSteps(
  db: Database,
  appointmentId: string,
  settings: ReminderSequenceSettings,
  now: Date,
  baseUrl: string,
): Promise<ReminderPassResult> {
  const result = await db.transaction(async (tx) => {
    const outcome: ReminderPassResult = { queued: 0, skipped: 0 };
    const target = await lockReminderTarget(tx, appointmentId);
    if (!target) return outcome;
    const decisions = planReminderSequence(settings, target, now).filter(
      (decision) => decision.action !== "wait",
    );
    if (decisions.length === 0) return outcome;
    const key = (step: ReminderStep) => ({ appointmentId, startsAt: target.startsAt, step });
    // The ledger decides (ADR 037): a withdrawn consent or a block stops every step; the handler asks again at send.
    const contactable =
      !!target.phone &&
      !!target.whatsappOptInAt &&
      !target.deactivatedAt &&
      (await mayContact(tx, await accountSubject(tx, target.patientId), "recordatorios_whatsapp", { now }))
        .allowed;
    for (const decision of decisions) {
      if (decision.action === "skip") {
        if (await claimReminderStep(tx, { ...key(decision.step), skipped: decision.reason, at: now }))
          outcome.skipped += 1;
        continue;
      }
      if (!contactable) {
        // Recorded, so that the job does not ask again every run; a consent given later starts with the next step.
        if (await claimReminderStep(tx, { ...key(decision.step), skipped: "no_consent", at: now }))
          outcome.skipped += 1;
        continue;
      }
      if (!(await claimReminderStep(tx, { ...key(decision.step), at: now }))) continue;
      const messageId = await queueStep(tx, decision.step, target, baseUrl);
      if (messageId) {
        await setReminderStepMessage(tx, key(decision.step), messageId);
        outcome.queued += 1;
      } else {
        await setReminderStepSkipped(tx, key(decision.step), "not_whatsapp");
        outcome.skipped += 1;
      }
    }
    return outcome;
  });
  // clinica_reminders_queued_total, once the steps are committed (issue 25).
  countRemindersQueued("whatsapp", result.queued);
  return result;
}

type Target = NonNullable<Awaited<ReturnType<typeof lockReminderTarget>>>;
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Queues the template of one step; null when WhatsApp cannot take the number (the claim stays: no retry loop). */
async function queueStep(
  tx: Tx,
  step: ReminderStep,
  target: Target,
  baseUrl: string,
): Promise<string | null> {
  const common = {
    purpose: "reminder" as const,
    to: target.phone!,
    appointmentId: target.id,
    userId: target.patientId,
    idempotencyKey: reminderStepKey(target.id, target.startsAt, step),
  };
  try {
    if (step === "24h") {
      const tokens = { confirm: newActionToken(), cancel: newActionToken(), callback: newActionToken() };
      const messageId = await enqueueWhatsApp(tx, {
        ...common,
        template: {
          name: REMINDER_TEMPLATE_NAME,
          placeholders: reminderPlaceholders({
            firstName: target.firstName,
            startsAt: target.startsAt,
            confirmUrl: `${baseUrl}${appointmentLinkPath("confirm", tokens.confirm)}`,
            cancelUrl: `${baseUrl}${appointmentLinkPath("cancel", tokens.cancel)}`,
            callbackUrl: `${baseUrl}${appointmentLinkPath("callback", tokens.callback)}`,
          }),
        },
      });
      if (!messageId) return null;
      await insertActionTokens(
        tx,
        (["confirm", "cancel", "callback"] as const).map((action) => ({
          appointmentId: target.id,
          action,
          tokenHash: hashActionToken(tokens[action]),
          expiresAt: target.startsAt,
        })),
      );
      return messageId;
    }
    const clinic = clinicFacts();
    let template;
    if (step === "48h") {
      const formsUrl = (await hasPendingForms(tx, target.id)) ? `${baseUrl}${FORMS_PATH}` : null;
      const early = earlyReminderTemplate({
        firstName: target.firstName,
        startsAt: target.startsAt,
        clinicName: clinic.name,
        formsUrl,
      });
      template = templateContent(early.key, early.placeholders);
    } else {
      template = templateContent(
        "appointmentReminderSameDay",
        sameDayReminderPlaceholders({
          firstName: target.firstName,
          startsAt: target.startsAt,
          address: clinic.address,
        }),
      );
    }
    return await enqueueWhatsApp(tx, { ...common, template });
  } catch (error) {
    if (!(error instanceof WhatsAppInputError)) throw error;
    logger.warn({ appointmentId: target.id, step }, "reminder step not queued: not a WhatsApp number");
    return null;
  }
}
