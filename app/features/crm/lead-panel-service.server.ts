import type { Database } from "~/db/client.server";
import type { LeadStatus } from "~/domain/lead-pipeline";
import { moveLead, recordContact, type StaffActor } from "./lead-pipeline-service.server";
import { statusForIntent, type LeadPanelIntent } from "./lead-panel-options";

/**
 * 'Marcar contactado' / 'Agendar' through the lead pipeline: checked, applied only if the lead still has
 * the status the card showed, written with its history and audit rows. AppError NOT_FOUND / CONFLICT otherwise.
 */
export async function applyLeadIntent(
  db: Database,
  input: { leadId: string; intent: LeadPanelIntent; from: LeadStatus; actor: StaffActor },
  now = new Date(),
): Promise<{ status: string; message: string }> {
  const { leadId, from, actor } = input;
  if (input.intent === "mark-contacted") return recordContact(db, { leadId, from, actor }, now);
  return moveLead(db, { leadId, from, to: statusForIntent[input.intent], actor }, now);
}
