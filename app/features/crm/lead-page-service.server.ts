import type { Database } from "~/db/client.server";
import { updatedSinceContact } from "~/domain/lead-updates";
import { formatChileanPhone, formatClinicDateTime } from "~/domain/format";
import { formatLeadAge } from "~/domain/lead-age";
import { canChangeLead } from "~/domain/lead-permissions";
import {
  allowedTransitions,
  isLeadStatus,
  contactOutcome,
  isLostReason,
  leadStatusLabels,
  lostReasonLabels,
  lostReasons,
  REOPEN_LABEL,
  transitionLabels,
  type LeadStatus,
} from "~/domain/lead-pipeline";
import { hasAdminRole } from "~/domain/roles";
import {
  budgetLabels,
  labelOf,
  leadLevelLabels,
  leadSourceLabels,
  treatmentLabels,
  urgencyLabels,
} from "~/domain/lead-labels";
import { firstNameOf, leadWhatsappLink } from "~/domain/lead-messages";
import { purposeLabels, statusLabels, statusTones } from "~/features/messaging/whatsapp-labels";
import { AppError } from "~/lib/base/errors";
import { isAway, listAsesores, staffNames } from "./lead-assignment-repository.server";
import { findLead, historySources } from "./lead-pipeline-repository.server";
import type { HistoryEntry, LeadPageData } from "./lead-page-dto";

export interface LeadPageViewer {
  id: string;
  roles: readonly string[];
}

const syncOutcomeBadges: Record<string, HistoryEntry["badge"]> = {
  success: { label: "Cita creada", tone: "good" },
  failed: { label: "Falló", tone: "bad" },
  processing: { label: "En proceso", tone: "info" },
};

function statusLabel(value: unknown): string {
  return typeof value === "string" && isLeadStatus(value) ? leadStatusLabels[value] : String(value ?? "—");
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * The lead page (`/funnel/leads/:id`, ADR 025): every field, the score's reasons, the moves the pipeline allows,
 * and the whole history newest first: status changes, notes, assignments, repeated requests, inbound WhatsApp,
 * outbound WhatsApp with its delivery status, Dentalink syncs, and the lead's arrival. AppError NOT_FOUND when
 * there is no such lead.
 */
export async function loadLeadPage(
  db: Database,
  leadId: string,
  viewer: LeadPageViewer,
  clinicName: string,
  now = new Date(),
): Promise<LeadPageData> {
  const lead = await findLead(db, leadId);
  if (!lead) throw new AppError("NOT_FOUND", "No encontramos ese lead.");
  const isAdmin = hasAdminRole(viewer.roles);
  const isAsesor = viewer.roles.includes("asesor");
  const [{ history, messages, syncs }, asesores, away] = await Promise.all([
    historySources(db, leadId),
    isAdmin ? listAsesores(db) : Promise.resolve([]),
    isAsesor ? isAway(db, viewer.id) : Promise.resolve(false),
  ]);

  const actorIds = new Set<string>();
  for (const row of history) if (row.actorId) actorIds.add(row.actorId);
  for (const row of syncs) if (row.actorId) actorIds.add(row.actorId);
  for (const row of history) {
    if (row.kind !== "assignment") continue;
    for (const key of ["from", "to"]) {
      const id = str(row.details[key]);
      if (id) actorIds.add(id);
    }
  }
  if (lead.assignedTo) actorIds.add(lead.assignedTo);
  const names = await staffNames(db, [...actorIds]);
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? "Usuario eliminado") : null);

  const entries: Array<HistoryEntry & { order: number }> = [];
  const push = (entry: Omit<HistoryEntry, "at" | "atLabel"> & { date: Date; order: number }) => {
    const { date, ...rest } = entry;
    entries.push({ ...rest, at: date.toISOString(), atLabel: formatClinicDateTime(date) });
  };

  for (const row of history) {
    const details = row.details;
    const actorName = nameOf(row.actorId);
    const base = { id: row.id, date: row.at, actorName, order: 3 };
    switch (row.kind) {
      case "status": {
        const reason = str(details.reason);
        const contactOnly = details.contact === true;
        const viaDentalink = str(details.dentalinkSyncId) !== null;
        push({
          ...base,
          kind: "status",
          title: contactOnly
            ? `Contacto registrado (sigue «${statusLabel(details.to)}»)`
            : `Estado: ${statusLabel(details.from)} → ${statusLabel(details.to)}${viaDentalink ? " (cita en Dentalink)" : ""}`,
          body: reason && isLostReason(reason) ? `Motivo: ${lostReasonLabels[reason]}` : null,
          badge: null,
        });
        break;
      }
      case "note":
        push({ ...base, kind: "note", title: "Nota", body: row.text, badge: null });
        break;
      case "assignment": {
        const to = nameOf(str(details.to));
        push({
          ...base,
          kind: "assignment",
          title: to ? `Asignado a ${to}` : "Quedó sin asignar",
          body: str(details.from) ? `Antes: ${nameOf(str(details.from))}` : null,
          badge: null,
        });
        break;
      }
      case "duplicate": {
        // A request matched by e-mail alone, from another phone, changed nothing: staff check who it is (ADR 025).
        const phoneMismatch = details.phoneMismatch === true;
        const parts = [
          ...(phoneMismatch
            ? [`Nombre: ${str(details.name) ?? "—"}`, `Teléfono: ${str(details.phone) ?? "—"}`]
            : []),
          `Tratamiento: ${labelOf(treatmentLabels, String(details.treatment ?? ""))}`,
          `Urgencia: ${labelOf(urgencyLabels, String(details.urgency ?? ""))}`,
          `Presupuesto: ${labelOf(budgetLabels, String(details.budget ?? ""))}`,
          `Origen: ${labelOf(leadSourceLabels, String(details.source ?? ""))}`,
        ];
        if (
          !phoneMismatch &&
          typeof details.scoreBefore === "number" &&
          typeof details.scoreAfter === "number"
        ) {
          parts.push(`Puntaje: ${details.scoreBefore} → ${details.scoreAfter}`);
        }
        push({
          ...base,
          kind: "duplicate",
          title: phoneMismatch
            ? "Solicitud con el mismo e-mail y teléfono distinto (el lead no cambió)"
            : "Volvió a escribir (solicitud repetida)",
          body: [parts.join(" · "), row.text].filter(Boolean).join("\n"),
          badge: phoneMismatch
            ? { label: "Teléfono distinto", tone: "bad" }
            : { label: "Actualizado", tone: "info" },
        });
        break;
      }
      case "whatsapp-inbound":
        push({
          ...base,
          kind: "whatsapp-inbound",
          title: "WhatsApp recibido",
          body: row.text,
          badge: null,
        });
        break;
      default:
        push({ ...base, kind: "note", title: row.kind, body: row.text, badge: null });
    }
  }
  for (const message of messages) {
    push({
      id: message.id,
      kind: "whatsapp-outbound",
      date: message.createdAt,
      order: 2,
      title: `WhatsApp enviado: ${labelOf(purposeLabels, message.purpose)}`,
      body: message.text ?? (message.templateName ? `Plantilla ${message.templateName}` : null),
      actorName: null,
      badge: {
        label: labelOf(statusLabels, message.status),
        tone: statusTones[message.status as keyof typeof statusTones] ?? "neutral",
      },
    });
  }
  for (const sync of syncs) {
    push({
      id: sync.id,
      kind: "dentalink",
      date: sync.finishedAt ?? sync.createdAt,
      order: 1,
      title: `Sincronización con Dentalink${sync.mode === "mock" ? " (modo demo)" : ""}`,
      body: [sync.message, ...sync.errors].filter(Boolean).join("\n") || null,
      actorName: nameOf(sync.actorId),
      badge: syncOutcomeBadges[sync.outcome] ?? null,
    });
  }
  push({
    id: `created-${lead.id}`,
    kind: "created",
    date: lead.createdAt,
    order: 0,
    title: `Lead creado (${labelOf(leadSourceLabels, lead.source)})`,
    body: null,
    actorName: null,
    badge: null,
  });
  // Newest first; at the same instant, what follows from another comes after it (the arrival is the oldest).
  entries.sort((a, b) => b.at.localeCompare(a.at) || b.order - a.order);

  const status = lead.status as LeadStatus;
  const treatmentLabel = labelOf(treatmentLabels, lead.treatment);
  const lastContact = lead.lastContactAt;
  const resubmitted = lead.resubmittedAt;
  const updated =
    resubmitted && updatedSinceContact(resubmitted, lastContact)
      ? { at: resubmitted.toISOString(), ago: formatLeadAge(resubmitted, now) }
      : null;

  return {
    lead: {
      id: lead.id,
      name: lead.name,
      firstName: firstNameOf(lead.name),
      phone: formatChileanPhone(lead.phone),
      phoneHref: `tel:${lead.phone}`,
      whatsappHref: leadWhatsappLink(lead.phone, lead.name, treatmentLabel, clinicName),
      email: lead.email,
      treatmentLabel,
      urgencyLabel: labelOf(urgencyLabels, lead.urgency),
      budgetLabel: labelOf(budgetLabels, lead.budget),
      sourceLabel: labelOf(leadSourceLabels, lead.source),
      message: lead.message,
      score: lead.score,
      level: lead.level,
      levelLabel: labelOf(leadLevelLabels, lead.level),
      profilingObjected: lead.profilingObjectedAt !== null,
      reasons: lead.reasons,
      status,
      statusLabel: leadStatusLabels[status] ?? status,
      lostReasonLabel:
        lead.lostReason && isLostReason(lead.lostReason) ? lostReasonLabels[lead.lostReason] : null,
      createdAt: lead.createdAt.toISOString(),
      createdAtLabel: formatClinicDateTime(lead.createdAt),
      createdAgo: formatLeadAge(lead.createdAt, now),
      lastContactAt: lastContact?.toISOString() ?? null,
      lastContactAgo: lastContact ? formatLeadAge(lastContact, now) : null,
      firstContactAtLabel: lead.firstContactAt ? formatClinicDateTime(lead.firstContactAt) : null,
      consentAtLabel: formatClinicDateTime(lead.consentAt),
      updated,
      assignee: lead.assignedTo ? { id: lead.assignedTo, name: nameOf(lead.assignedTo) ?? "" } : null,
    },
    actions: allowedTransitions(status).map((to) => ({
      to,
      label: status === "lost" ? REOPEN_LABEL : transitionLabels[to],
      needsReason: to === "lost",
    })),
    canContact: contactOutcome(status) !== null,
    canChange: canChangeLead(viewer, lead.assignedTo),
    lostReasons: lostReasons.map((value) => ({ value, label: lostReasonLabels[value] })),
    scheduleHref: `/funnel?tab=dentalink&lead=${lead.id}`,
    history: entries.map(({ order: _order, ...entry }) => entry),
    viewer: { id: viewer.id, isAdmin, isAsesor, away },
    asesores: asesores.map((row) => ({
      id: row.id,
      name: `${row.firstName} ${row.lastName}`.trim(),
      away: row.away,
    })),
  };
}
