import { outboxOrderingKey } from "~/domain/outbox-order";
import type { Database } from "~/db/client.server";
import {
  advisorLeadMessage,
  advisorLeadTemplate,
  patientLeadMessage,
  patientLeadTemplate,
} from "~/domain/lead-messages";
import type { LeadLevel } from "~/domain/lead-scoring";
import { contactSubject, mayContact } from "~/features/consent/consent-service.server";
import { enqueueWhatsApp, type EnqueueWhatsAppInput } from "~/features/messaging/whatsapp-outbox.server";
import { WhatsAppInputError } from "~/integrations/whatsapp/whatsapp-client.server";
import { clinicFacts } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import type { LeadRow } from "./lead-repository.server";
import { labelOf, leadLevelLabels, leadSourceLabels, treatmentLabels } from "~/domain/lead-labels";

/**
 * Queues a new lead's two WhatsApp messages in the caller's transaction (ADR 020): first the advisor
 * notice to the clinic's WhatsApp number, then the patient's confirmation with the level's follow-up promise. Only
 * when the lead consented to contact (every lead stored by the forms has, `consent_at` is required). Each carries its
 * text and its approved template; the send picks by the recipient's 24-hour window. Written in this order, the
 * outbox delivers them in this order (`outbox.seq`). The idempotency keys are the lead and the recipient, so the same
 * lead never queues twice.
 */
export async function notifyNewLead(tx: Database, lead: LeadRow) {
  if (!lead.consentAt) return;
  const clinic = clinicFacts();
  const facts = {
    clinicName: clinic.shortName,
    clinicHours: clinic.hoursCompact,
    name: lead.name,
    phone: lead.phone,
    treatment: labelOf(treatmentLabels, lead.treatment),
    level: lead.level as LeadLevel,
    levelLabel: labelOf(leadLevelLabels, lead.level),
    score: lead.score,
    source: labelOf(leadSourceLabels, lead.source),
    profilingObjected: lead.profilingObjectedAt !== null,
  };
  await queue(tx, {
    purpose: "lead-advisor",
    to: clinic.mobile,
    text: advisorLeadMessage(facts),
    template: advisorLeadTemplate(facts),
    leadId: lead.id,
    idempotencyKey: `lead:${lead.id}:advisor`,
    // The advisor hears of the lead before the patient's confirmation goes out (ADR 020): one lane for both.
    orderingKey: outboxOrderingKey("lead", lead.id),
  });
  // The ledger decides (ADR 037): the consent just recorded with the lead, unless a block is in force.
  const subject = contactSubject({ emails: [lead.email], phones: [lead.phone] });
  if (!(await mayContact(tx, subject, "datos_contacto")).allowed) return;
  await queue(tx, {
    purpose: "lead-patient",
    to: lead.phone,
    text: patientLeadMessage(facts),
    template: patientLeadTemplate(facts),
    leadId: lead.id,
    idempotencyKey: `lead:${lead.id}:patient`,
    orderingKey: outboxOrderingKey("lead", lead.id),
  });
}

/** A number WhatsApp cannot take is logged and skipped: the lead itself must not fail because of a message. */
async function queue(tx: Database, input: EnqueueWhatsAppInput) {
  try {
    await enqueueWhatsApp(tx, input);
  } catch (error) {
    if (!(error instanceof WhatsAppInputError)) throw error;
    logger.warn(
      { leadId: input.leadId, purpose: input.purpose },
      "lead message not queued: not a WhatsApp number",
    );
  }
}
