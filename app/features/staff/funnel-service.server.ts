import type { Database } from "~/db/client.server";
import { whatsappNumber } from "~/domain/format";
import type { LeadStatus } from "~/domain/lead-pipeline";
import { moveLead, recordContact, type StaffActor } from "~/features/crm/lead-pipeline-service.server";
import { statusForIntent, type LeadPanelIntent } from "./lead-panel-options";

export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

/** wa.me link with a greeting in Spanish that names the lead (spec 001 §2 card action "WhatsApp"). */
export function whatsappLink(
  phone: string,
  name: string,
  treatmentLabel: string,
  clinicName: string,
): string {
  const text =
    `Hola ${firstNameOf(name)}, te saluda el equipo de ${clinicName}. ` +
    `Recibimos tu consulta sobre ${treatmentLabel.toLowerCase()} y queremos ayudarte. ` +
    "¿Cuándo te acomoda que conversemos?";
  return `https://wa.me/${whatsappNumber(phone)}?text=${encodeURIComponent(text)}`;
}

/**
 * 'Marcar contactado' / 'Agendar' through the lead pipeline (issue 13): checked, applied only if the lead still has
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
