import type { Database } from "~/db/client.server";
import { formatChileanPhone } from "~/domain/format";
import {
  advisorLeadMessage,
  advisorLeadTemplate,
  patientLeadMessage,
  patientLeadTemplate,
  type LeadMessageFacts,
} from "~/domain/lead-messages";
import type { LeadLevel } from "~/domain/lead-scoring";
import { effectiveTestMode, reachableOnWhatsApp } from "~/domain/whatsapp-test-send";
import { WhatsAppInputError } from "~/integrations/whatsapp/whatsapp-client.server";
import { AppError } from "~/lib/base/errors";
import { clinicFacts, whatsAppTestMode } from "~/lib/base/env.server";
import { consumeRate } from "~/lib/rate-limit.server";
import { outboxOrderingKey } from "~/domain/outbox-order";
import { enqueueWhatsApp } from "./whatsapp-outbox.server";
import { outboxIdsByKey } from "./whatsapp-log-repository.server";
import { TEST_PURPOSE } from "./whatsapp-log-service.server";

/** The test lead the card sends for, scored on the server (never taken from the browser as is). */
export interface TestLeadForMessages {
  name: string;
  /** E.164, as the lead schemas give it. */
  phone: string;
  treatmentLabel: string;
  level: LeadLevel;
  levelLabel: string;
  score: number;
}

/** What the advisor notice names as the lead's source, so nobody mistakes a test for a real lead. */
export const TEST_LEAD_SOURCE = "Dashboard de Pruebas";

/** Per staff member: the card can send to any number it is given, so a stolen session must not make it a spam gun. */
export const TEST_SEND_RULE = { window: 10 * 60, max: 30 };

/**
 * The test card's send: the two messages the clinic's specification gives for the test lead — the advisor notice to
 * the clinic's WhatsApp number, then the patient's confirmation — queued in one transaction through the outbox
 * (purpose "test"); the card never calls the provider. Answers the messages' ids in that order.
 *
 * `attemptKey` (a uuid the browser makes per attempt) keys both messages with the staff member, so a double click
 * or a resent request answers the first request's messages instead of sending again; a retry is a new attempt.
 * In test mode (the toggle, or the clinic without a key) the messages are recorded as accepted and never sent.
 */
export async function queueTestLeadMessages(
  db: Database,
  input: { lead: TestLeadForMessages; requestedTestMode: boolean; attemptKey: string; actorId: string },
): Promise<{ ids: string[]; testMode: boolean }> {
  const rate = await consumeRate(db, `whatsapp-test:user:${input.actorId}`, TEST_SEND_RULE);
  if (!rate.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      "demasiados envíos de prueba seguidos; espera unos minutos e intenta nuevamente.",
      rate.retryAfter ?? undefined,
    );
  }
  const testMode = effectiveTestMode(input.requestedTestMode, whatsAppTestMode());
  const { lead } = input;
  // The only failure a test-mode send can meet (documented in the README): WhatsApp does not reach landlines.
  if (!reachableOnWhatsApp(lead.phone)) {
    throw new AppError(
      "VALIDATION",
      `el teléfono ${formatChileanPhone(lead.phone)} del lead de prueba es un número fijo y WhatsApp solo llega a celulares.`,
    );
  }
  const clinic = clinicFacts();
  const facts: LeadMessageFacts = {
    clinicName: clinic.shortName,
    clinicHours: clinic.hoursCompact,
    name: lead.name,
    phone: lead.phone,
    treatment: lead.treatmentLabel,
    level: lead.level,
    levelLabel: lead.levelLabel,
    score: lead.score,
    source: TEST_LEAD_SOURCE,
  };
  const keys = [
    `whatsapp-test:${input.actorId}:${input.attemptKey}:advisor`,
    `whatsapp-test:${input.actorId}:${input.attemptKey}:patient`,
  ] as const;
  // As a real lead's two notices (ADR 020, ADR 047): one lane, so the advisor's goes out before the patient's.
  const orderingKey = outboxOrderingKey("lead", `prueba:${input.actorId}:${input.attemptKey}`);
  let queued: Array<string | null>;
  try {
    queued = await db.transaction(async (tx) => [
      await enqueueWhatsApp(tx, {
        purpose: TEST_PURPOSE,
        to: clinic.mobile,
        // Text inside the recipient's 24-hour window, the approved template outside it (as a real lead's).
        text: advisorLeadMessage(facts),
        template: advisorLeadTemplate(facts),
        idempotencyKey: keys[0],
        orderingKey,
        testMode,
      }),
      await enqueueWhatsApp(tx, {
        purpose: TEST_PURPOSE,
        to: lead.phone,
        text: patientLeadMessage(facts),
        template: patientLeadTemplate(facts),
        idempotencyKey: keys[1],
        orderingKey,
        testMode,
      }),
    ]);
  } catch (error) {
    if (!(error instanceof WhatsAppInputError)) throw error;
    throw new AppError("VALIDATION", "un número de los mensajes no es un número de WhatsApp válido.");
  }
  if (queued.every((id) => id !== null)) return { ids: queued as string[], testMode };
  // The attempt was already sent: its messages, as the first request queued them.
  const existing = await outboxIdsByKey(db, [...keys]);
  const ids = keys.map((key) => existing.get(key));
  if (ids.some((id) => id === undefined)) {
    throw new AppError("CONFLICT", "Este intento ya se está enviando. Espera un momento.");
  }
  return { ids: ids as string[], testMode };
}
