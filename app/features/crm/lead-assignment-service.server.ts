import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads } from "~/db/schema";
import { takeNextAssignee } from "./lead-assignment-repository.server";
import { writeHistory } from "./lead-pipeline-repository.server";

/**
 * The asesor a new lead (landing form, guided assistant, inbound WhatsApp) is given, chosen inside the
 * transaction that inserts it: round-robin among active asesores who are not away; null when nobody is available
 * (the lead stays unassigned). ADR 025.
 */
export function assigneeForNewLead(tx: Database): Promise<string | null> {
  return takeNextAssignee(tx);
}

/**
 * A request merged into an open lead nobody owns (ADR 025): the lead is given to the next available asesor, in the
 * merge's transaction, with an 'assignment' history row (no actor: the system chose). Null, and nothing written,
 * when the lead already has an asesor or nobody is available.
 */
export async function assignIfUnassigned(
  tx: Database,
  lead: { id: string; assignedTo: string | null },
  at: Date,
  reason: "duplicate" | "demo" = "duplicate",
): Promise<string | null> {
  if (lead.assignedTo) return null;
  const assignee = await takeNextAssignee(tx);
  if (!assignee) return null;
  const updated = await tx
    .update(leads)
    .set({ assignedTo: assignee })
    .where(and(eq(leads.id, lead.id), isNull(leads.assignedTo)))
    .returning({ id: leads.id });
  if (updated.length === 0) return null;
  await writeHistory(tx, {
    leadId: lead.id,
    kind: "assignment",
    text: "",
    actorId: null,
    details: { from: null, to: assignee, reason },
    at,
  });
  return assignee;
}

/**
 * Demo mode: the seeded demo leads were stored before the demo accounts existed, so they go round-robin to the demo
 * asesores now, as a new lead would ('Mis leads' then shows something). Leads already assigned are left alone.
 */
export async function assignSeededLeads(db: Database, submissionIds: readonly string[], at = new Date()) {
  const unassigned = await db
    .select({ id: leads.id, assignedTo: leads.assignedTo })
    .from(leads)
    .where(and(inArray(leads.submissionId, [...submissionIds]), isNull(leads.assignedTo)))
    .orderBy(asc(leads.createdAt));
  for (const lead of unassigned) {
    await db.transaction((tx) => assignIfUnassigned(tx, lead, at, "demo"));
  }
}
