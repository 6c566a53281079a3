import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { followUpPromise, scoreLead, type LeadLevel } from "~/domain/lead-scoring";
import { logger } from "~/lib/logger.server";
import { chargePublicWrite, type PublicWriter } from "~/lib/public-write-limit.server";
import type { LeadForm } from "./lead-schema";
import { notifyNewLead } from "./lead-notifications.server";
import { findRecentDuplicate, insertLeadOnce } from "./lead-repository.server";

const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

export interface CaptureLeadResult {
  leadId: string;
  level: LeadLevel;
  promise: { title: string; detail: string };
  duplicate: boolean;
}

/**
 * Scores and stores a lead. Idempotent: the same submission id, or the same phone, treatment and message within
 * ten minutes, returns the lead already stored instead of creating a second one. Only a new lead is charged to the
 * writer's hourly budget; past it, `PublicWriteRefused` is thrown and nothing is stored. A new lead also queues its
 * two WhatsApp messages in the same transaction. Resolves after the commit.
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
  if (recent) return result(recent.id, recent.level as LeadLevel, true);

  const { lead, created } = await db.transaction(async (tx) => {
    const stored = await insertLeadOnce(tx, {
      submissionId: form.submissionId ?? randomUUID(),
      name: form.name,
      phone: form.phone,
      email: form.email,
      treatment: form.treatment,
      urgency: form.urgency,
      budget: form.budget,
      message: form.message,
      score,
      level,
      reasons,
      source: form.source,
      consentAt: now,
      createdAt: now,
      updatedAt: now,
    });
    if (stored.created) {
      await chargePublicWrite(tx, "lead", writer, now);
      // Issue 9: the advisor's notice then the patient's confirmation, with the lead (a resubmission queues nothing).
      await notifyNewLead(tx, stored.lead);
    }
    return stored;
  });
  if (created) logger.info({ leadId: lead.id, level, score, source: form.source }, "lead captured");
  return result(lead.id, lead.level as LeadLevel, !created);
}

function result(leadId: string, level: LeadLevel, duplicate: boolean): CaptureLeadResult {
  return { leadId, level, promise: followUpPromise(level), duplicate };
}
