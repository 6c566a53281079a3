import type { Database } from "~/db/client.server";
import { mayProfile } from "~/domain/consent-rules";
import { scoreLead, type Budget, type Treatment, type Urgency } from "~/domain/lead-scoring";
import type { PrivacyRestrictionKind } from "~/domain/privacy";
import { markLeadsObjected, objectedLeads, restoreLeadScore } from "./profiling-repository.server";
import { activeRestrictions, addRestriction, endRestrictions } from "./restrictions.server";
import type { DataSubject } from "./subject";

/**
 * Objection to profiling (Ley 21.719 art. 8 bis; ADR 037). The lead score is profiling: while a 'perfilamiento'
 * restriction is in force the person's leads carry no score (stored as the neutral 0 / 'cold' / no reasons, with
 * `profiling_objected_at` set) and nothing ranks them automatically; staff read "Sin puntaje: la persona se opuso al
 * perfilamiento". Marketing stops too (`contactDecision`).
 */

/**
 * Puts the objection in force for the subject (account, e-mails, phones) and takes the score from the person's
 * existing leads (matched by e-mail or phone). Idempotent. `requestId` ties it to a rights request (features/privacy
 * calls this when one is approved). Answers how many leads were marked.
 */
export async function objectToProfiling(
  db: Database,
  subject: DataSubject,
  options: { requestId?: string | null; createdBy?: string | null; now?: Date } = {},
): Promise<{ leadsMarked: number }> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    await addRestriction(tx, {
      kind: "perfilamiento",
      subject,
      requestId: options.requestId ?? null,
      createdBy: options.createdBy ?? null,
      reason: "Oposición al perfilamiento (art. 8 bis)",
      now,
    });
    return { leadsMarked: await markLeadsObjected(tx, subject, now) };
  });
}

/**
 * Withdraws the person's own objection: the restriction ends, and once none is left in force their leads are scored
 * again from their own answers. Answers how many leads got their score back.
 */
export async function withdrawProfilingObjection(
  db: Database,
  subject: DataSubject,
  options: { now?: Date } = {},
): Promise<{ leadsRescored: number }> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    await endRestrictions(tx, { subject, kind: "perfilamiento", now });
    if (!(await mayProfileSubject(tx, subject, now))) return { leadsRescored: 0 };
    const rows = await objectedLeads(tx, subject);
    for (const lead of rows) {
      const score = scoreLead({
        treatment: lead.treatment as Treatment,
        urgency: lead.urgency as Urgency,
        budget: lead.budget as Budget,
        phone: lead.phone,
        email: lead.email,
        message: lead.message,
      });
      await restoreLeadScore(tx, lead.id, score);
    }
    return { leadsRescored: rows.length };
  });
}

/** Whether the subject's own objection to profiling is in force (Mis Datos' switch). */
export async function profilingObjected(db: Database, subject: DataSubject, now = new Date()) {
  return (await activeRestrictions(db, subject, ["perfilamiento"], now)).length > 0;
}

/** May a lead of this subject be scored? Not while an objection to profiling or a block is in force. */
export async function mayProfileSubject(db: Database, subject: DataSubject, now = new Date()) {
  const kinds: PrivacyRestrictionKind[] = ["perfilamiento", "bloqueo"];
  const restrictions = await activeRestrictions(db, subject, kinds, now);
  return mayProfile(restrictions.map((row) => row.kind as PrivacyRestrictionKind));
}
