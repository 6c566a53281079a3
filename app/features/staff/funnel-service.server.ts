import type { Database } from "~/db/client.server";
import { formatChileanPhone, whatsappNumber } from "~/domain/format";
import { formatLeadAge } from "~/domain/lead-age";
import { budgetLabels, treatmentLabels, urgencyLabels } from "~/features/leads/lead-options";
import type { LeadCard, LeadCounts, LeadPanelData } from "./funnel-dto";
import type { LeadStatus } from "~/domain/lead-pipeline";
import { moveLead, recordContact, type StaffActor } from "~/features/crm/lead-pipeline-service.server";
import { countLeads, searchLeads, type LeadListRow } from "./funnel-repository.server";
import {
  labelOf,
  leadLevelLabels,
  leadSourceLabels,
  leadStatusLabels,
  statusForIntent,
  type LeadPanelIntent,
} from "./lead-panel-options";
import type { LeadFilters } from "./lead-panel-schema";

export const LEAD_PAGE_SIZE = 100;

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

function toCard(row: LeadListRow, now: Date, clinicName: string): LeadCard {
  const treatmentLabel = labelOf(treatmentLabels, row.treatment);
  return {
    id: row.id,
    name: row.name,
    firstName: firstNameOf(row.name),
    phone: formatChileanPhone(row.phone),
    phoneHref: `tel:${row.phone}`,
    whatsappHref: whatsappLink(row.phone, row.name, treatmentLabel, clinicName),
    email: row.email,
    level: row.level,
    levelLabel: labelOf(leadLevelLabels, row.level),
    score: row.score,
    status: row.status,
    statusLabel: labelOf(leadStatusLabels, row.status),
    treatmentLabel,
    urgencyLabel: labelOf(urgencyLabels, row.urgency),
    budgetLabel: labelOf(budgetLabels, row.budget),
    message: row.message,
    sourceLabel: labelOf(leadSourceLabels, row.source),
    createdAt: row.createdAt.toISOString(),
    createdAgo: formatLeadAge(row.createdAt, now),
    lastContactAgo: row.lastContactAt ? formatLeadAge(row.lastContactAt, now) : null,
  };
}

export async function loadLeadPanel(
  db: Database,
  filters: LeadFilters,
  clinicName: string,
  now = new Date(),
): Promise<LeadPanelData> {
  const { rows, truncated } = await searchLeads(db, filters, LEAD_PAGE_SIZE);
  return {
    filters: { q: filters.q, level: filters.level, status: filters.status },
    leads: rows.map((row) => toCard(row, now, clinicName)),
    truncated,
    limit: LEAD_PAGE_SIZE,
  };
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
