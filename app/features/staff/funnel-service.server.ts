import type { Database } from "~/db/client.server";
import { whatsappNumber } from "~/domain/format";
import type { LeadCounts } from "./funnel-dto";
import { changeLeadStatus, countLeads, type LeadStatusChange } from "./funnel-repository.server";
import { leadStatusLabels, statusForIntent, type LeadPanelIntent } from "./lead-panel-options";

export function loadLeadCounts(db: Database): Promise<LeadCounts> {
  return countLeads(db);
}

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

/** 'Marcar contactado' / 'Agendar'. Null when the lead does not exist. */
export async function applyLeadIntent(
  db: Database,
  input: { leadId: string; intent: LeadPanelIntent; actor: LeadStatusChange["actor"] },
  now = new Date(),
): Promise<{ status: string; message: string } | null> {
  const status = statusForIntent[input.intent];
  const changed = await changeLeadStatus(db, { leadId: input.leadId, status, at: now, actor: input.actor });
  if (!changed) return null;
  return { status, message: `${changed.name} quedó como «${leadStatusLabels[status]}».` };
}
