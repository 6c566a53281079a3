import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { mergeDuplicate, normalizedEmail, phoneDigits } from "~/domain/lead-duplicates";
import {
  followUpPromise,
  scoreLead,
  type Budget,
  type LeadLevel,
  type Treatment,
  type Urgency,
} from "~/domain/lead-scoring";
import { contactSubject, recordConsent } from "~/features/consent/consent-service.server";
import { mayProfileSubject } from "~/features/consent/profiling-service.server";
import { assigneeForNewLead, assignIfUnassigned } from "~/features/crm/lead-assignment-service.server";
import { logger } from "~/lib/base/logger.server";
import { chargePublicWrite, type PublicWriter } from "~/lib/public-write-limit.server";
import { LEAD_MESSAGE_MAX_LENGTH, type LeadForm } from "./lead-schema";
import { notifyNewLead } from "./lead-notifications.server";
import {
  findBySubmission,
  findOpenLeadByContact,
  findRecentDuplicate,
  insertLeadHistory,
  insertLeadOnce,
  lockContacts,
  updateLead,
  type LeadRow,
} from "./lead-repository.server";

const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

export interface CaptureLeadResult {
  leadId: string;
  level: LeadLevel;
  promise: { title: string; detail: string };
  duplicate: boolean;
}

/**
 * Scores and stores a lead. Idempotent: the same submission id, or the same phone, treatment and message within
 * ten minutes, returns the lead already stored instead of creating a second one. A request whose phone or e-mail
 * matches an open lead is merged into it instead (ADR 025). A new lead is assigned round-robin to an available
 * asesor in the same transaction. New leads and merges are charged to the writer's hourly budget; past it,
 * `PublicWriteRefused` is thrown and nothing is stored. A new lead also queues its two WhatsApp messages in the
 * same transaction. Resolves after the commit.
 */
export async function captureLead(
  db: Database,
  form: LeadForm,
  writer: PublicWriter,
  now = new Date(),
): Promise<CaptureLeadResult> {
  const { score, level, reasons } = scoreLead(form);
  const candidate = { phone: form.phone, treatment: form.treatment, message: form.message };

  const recent = form.submissionId
    ? undefined
    : await findRecentDuplicate(db, candidate, new Date(now.getTime() - DUPLICATE_WINDOW_MS));
  if (recent) return result(recent.id, level, true);

  const submission = form.submissionId ?? randomUUID();
  const email = normalizedEmail(form.email);
  const outcome = await db.transaction(async (tx) => {
    await lockContacts(tx, [phoneDigits(form.phone), ...(email ? [email] : [])]);
    const known = await findBySubmission(tx, submission);
    if (known) return { lead: known, created: false, merged: false };

    // The same person with an open lead asks again (ADR 025): the open lead gets it, no second lead.
    const open = await findOpenLeadByContact(tx, { phone: form.phone, email });
    if (open) {
      const merged = await mergeIntoOpenLead(tx, open, form, submission, now);
      // The new submission is a new giving of the consent, with the contacts this person typed.
      await recordConsent(tx, {
        subject: contactSubject({ emails: [email], phones: [form.phone] }),
        purpose: "datos_contacto",
        channel: form.source === "asistente" ? "asistente" : "formulario_web",
        leadId: open.id,
        at: now,
      });
      await chargePublicWrite(tx, "lead", writer, now);
      return { lead: merged, created: false, merged: true };
    }

    // An objection to profiling in force (art. 8 bis, ADR 037): the lead is stored unscored.
    const subject = contactSubject({ emails: [email], phones: [form.phone] });
    const profiled = await mayProfileSubject(tx, subject, now);
    const stored = await insertLeadOnce(tx, {
      submissionId: submission,
      name: form.name,
      phone: form.phone,
      email: form.email,
      treatment: form.treatment,
      urgency: form.urgency,
      budget: form.budget,
      message: form.message,
      ...(profiled ? { score, level, reasons } : { ...UNSCORED, profilingObjectedAt: now }),
      source: form.source,
      assignedTo: await assigneeForNewLead(tx),
      consentAt: now,
      createdAt: now,
      updatedAt: now,
    });
    if (stored.created) {
      await recordLeadConsent(
        tx,
        stored.lead,
        form.source === "asistente" ? "asistente" : "formulario_web",
        now,
      );
      await chargePublicWrite(tx, "lead", writer, now);
      // The advisor's notice then the patient's confirmation, outbox rows written with the lead (a resubmission queues nothing).
      await notifyNewLead(tx, stored.lead);
    }
    return { ...stored, merged: false };
  });
  const { lead, created, merged } = outcome;
  if (created) logger.info({ leadId: lead.id, level, score, source: form.source }, "lead captured");
  if (merged) logger.info({ leadId: lead.id, source: form.source }, "lead request merged into an open lead");
  // The submitter's own answers decide the promise shown: never reveal, by a different answer, that a lead exists.
  return result(lead.id, level, !created);
}

/**
 * A request from someone with an open lead (ADR 025): a 'duplicate' history entry with what came in, the lead
 * re-scored (higher urgency wins, placeholders filled: `mergeDuplicate`), `resubmitted_at` and `updated_at` moved
 * so the staff see it ('Actualizado'), and the lead given to an asesor if nobody had it.
 *
 * A match by e-mail alone, with another phone, proves nothing about who sent it (anyone who knows a person's
 * e-mail could otherwise raise their lead's urgency or replace its answers and name): only the history row is
 * written, marked `phoneMismatch` ("teléfono distinto" on the lead page) for the staff to check.
 */
async function mergeIntoOpenLead(
  tx: Database,
  open: LeadRow,
  form: LeadForm,
  submission: string,
  now: Date,
): Promise<LeadRow> {
  const phoneMismatch = phoneDigits(open.phone) !== phoneDigits(form.phone);
  const { answers, score } = mergeDuplicate(
    {
      treatment: open.treatment as Treatment,
      urgency: open.urgency as Urgency,
      budget: open.budget as Budget,
      phone: open.phone,
      email: open.email,
      message: open.message,
    },
    { treatment: form.treatment, urgency: form.urgency, budget: form.budget, email: form.email },
  );
  await insertLeadHistory(tx, {
    leadId: open.id,
    kind: "duplicate",
    text: form.message,
    submissionId: submission,
    details: {
      source: form.source,
      name: form.name,
      phone: form.phone,
      email: normalizedEmail(form.email),
      treatment: form.treatment,
      urgency: form.urgency,
      budget: form.budget,
      ...(open.profilingObjectedAt
        ? {}
        : { scoreBefore: open.score, scoreAfter: phoneMismatch ? open.score : score.score }),
      ...(phoneMismatch ? { phoneMismatch: true } : {}),
    },
    at: now,
  });
  await assignIfUnassigned(tx, open, now);
  if (phoneMismatch) return open;
  // Objected (now, or when the lead was stored): the merge changes the answers, never the (absent) score.
  const profiled =
    open.profilingObjectedAt === null &&
    (await mayProfileSubject(tx, contactSubject({ emails: [answers.email], phones: [open.phone] }), now));
  return updateLead(tx, open.id, {
    name: open.name === WHATSAPP_LEAD_PLACEHOLDER_NAME ? form.name : open.name,
    treatment: answers.treatment,
    urgency: answers.urgency,
    budget: answers.budget,
    email: answers.email,
    ...(profiled
      ? { score: score.score, level: score.level, reasons: score.reasons }
      : { ...UNSCORED, profilingObjectedAt: open.profilingObjectedAt ?? now }),
    resubmittedAt: now,
    updatedAt: now,
  });
}

/**
 * What an unscored lead stores (ADR 037): the neutral values the check constraints allow that trigger nothing — no
 * hot-lead alert, no 'Hot' count, no reasons — with `profiling_objected_at` telling the staff why.
 */
const UNSCORED = { score: 0, level: "cold", reasons: [] as string[] } as const;

/** The lead's consent to be contacted, in the ledger: its own contacts, the current text, where it was given. */
async function recordLeadConsent(
  tx: Database,
  lead: LeadRow,
  channel: "formulario_web" | "asistente" | "whatsapp",
  at: Date,
) {
  await recordConsent(tx, {
    subject: contactSubject({ emails: [lead.email], phones: [lead.phone] }),
    purpose: "datos_contacto",
    channel,
    leadId: lead.id,
    at,
  });
}

function result(leadId: string, level: LeadLevel, duplicate: boolean): CaptureLeadResult {
  return { leadId, level, promise: followUpPromise(level), duplicate };
}

/**
 * Takes the contact locks of every sender of an inbound WhatsApp batch at once, in sorted order (so two batches cannot deadlock, ADR 025), before
 * any message is filed: two webhooks with the same senders in another order wait instead of deadlocking. The
 * per-message lock in `fileWhatsAppMessage` is then already held (advisory locks are re-entrant).
 */
export async function lockSenders(tx: Database, phones: string[]): Promise<void> {
  await lockContacts(tx, phones.map(phoneDigits));
}

/** The name a lead from WhatsApp gets when the message carries no usable profile name. */
export const WHATSAPP_LEAD_PLACEHOLDER_NAME = "Paciente de WhatsApp";

export interface WhatsAppLeadMessage {
  /** The sender's number in E.164 (`+56912345678`), as leads store phones. */
  phone: string;
  /** WhatsApp's profile name, if the message had one. */
  contactName?: string | null;
  text: string;
  at: Date;
  /** The stored inbound message (`whatsapp_inbound_messages.id`). */
  inboundMessageId: string;
}

/** A profile name is whatever the person typed in WhatsApp: one line, no control characters, at most 100. */
function leadName(contactName: string | null | undefined): string {
  const name = (contactName ?? "").replace(/\p{C}/gu, " ").replace(/\s+/g, " ").trim().slice(0, 100).trim();
  return name.length >= 2 ? name : WHATSAPP_LEAD_PLACEHOLDER_NAME;
}

/**
 * Files a WhatsApp message from a person (ADR 020), inside the caller's transaction. The latest lead with that
 * number gets it in its history and nothing else happens. An unknown number becomes a new lead (source
 * `whatsapp`), scored by the normal rules from what a message tells: no form answers, so the neutral choices
 * (general evaluation, "solo estoy evaluando", "prefiero consultarlo") and the message itself; its history starts
 * with the message, and its two WhatsApp messages are queued like any new lead's. Writing to the clinic is asking
 * to be contacted: the message's time is the lead's consent (ADR 020).
 */
export async function fileWhatsAppMessage(
  tx: Database,
  message: WhatsAppLeadMessage,
): Promise<{ leadId: string; created: boolean }> {
  const history = {
    kind: "whatsapp-inbound",
    text: message.text,
    inboundMessageId: message.inboundMessageId,
    at: message.at,
  };
  await lockContacts(tx, [phoneDigits(message.phone)]);
  // An open lead with this number gets the message (ADR 025); a closed one (converted, lost) does not, so the
  // person becomes a new lead, the same rule as the forms'.
  const known = await findOpenLeadByContact(tx, { phone: message.phone, email: null });
  if (known) {
    await insertLeadHistory(tx, { leadId: known.id, ...history });
    return { leadId: known.id, created: false };
  }
  const answers = { treatment: "evaluacion", urgency: "evaluando", budget: "consultar" } as const;
  const text = message.text.slice(0, LEAD_MESSAGE_MAX_LENGTH);
  const { score, level, reasons } = scoreLead({
    ...answers,
    phone: message.phone,
    email: null,
    message: text,
  });
  const profiled = await mayProfileSubject(tx, contactSubject({ phones: [message.phone] }), message.at);
  const { lead } = await insertLeadOnce(tx, {
    submissionId: randomUUID(),
    name: leadName(message.contactName),
    phone: message.phone,
    email: null,
    ...answers,
    message: text,
    ...(profiled ? { score, level, reasons } : { ...UNSCORED, profilingObjectedAt: message.at }),
    source: "whatsapp",
    assignedTo: await assigneeForNewLead(tx),
    consentAt: message.at,
    createdAt: message.at,
    updatedAt: message.at,
  });
  await insertLeadHistory(tx, { leadId: lead.id, ...history });
  await recordLeadConsent(tx, lead, "whatsapp", message.at);
  await notifyNewLead(tx, lead);
  logger.info({ leadId: lead.id, level, score, source: "whatsapp" }, "lead captured");
  return { leadId: lead.id, created: true };
}
