import type { Database } from "~/db/client.server";
import { NOTE_MAX_LENGTH } from "./lead-page-schema";
import {
  checkTransition,
  contactOutcome,
  leadStatusLabels,
  lostReasonLabels,
  canTransition,
  type LeadStatus,
} from "~/domain/lead-pipeline";
import { canChangeLead, LEAD_CHANGE_REFUSED } from "~/domain/lead-permissions";
import { hasAdminRole } from "~/domain/roles";
import { AppError } from "~/lib/base/errors";
import { isActiveAsesor, setAway, staffNames } from "./lead-assignment-repository.server";
import {
  currentStatus,
  leadAssignee,
  lockLeadAssignee,
  lockLeadStatus,
  setAssignee,
  stampContactIf,
  touchLead,
  updateStatusIf,
  writeAudit,
  writeHistory,
  type StaffActor,
} from "./lead-pipeline-repository.server";

export type { StaffActor };

export interface PipelineOutcome {
  status: LeadStatus;
  message: string;
}

function isAdmin(actor: StaffActor): boolean {
  return hasAdminRole(actor.roles);
}

/** Why an optimistic update found nothing: the lead is gone (404) or someone changed it first (409). */
async function staleOrMissing(db: Pick<Database, "select">, leadId: string): Promise<never> {
  const now = await currentStatus(db, leadId);
  if (!now) throw new AppError("NOT_FOUND", "No encontramos ese lead.");
  throw new AppError(
    "CONFLICT",
    `Otra persona cambió este lead mientras lo veías: ahora está «${leadStatusLabels[now]}». Revisa y vuelve a intentarlo.`,
  );
}

/**
 * Inside a change's transaction: locks the lead and refuses (403) an actor who may not change it
 * (domain/lead-permissions.ts), before anything is written. False when there is no such lead.
 */
async function lockForChange(tx: Database, leadId: string, actor: StaffActor): Promise<boolean> {
  const lead = await lockLeadAssignee(tx, leadId);
  if (!lead) return false;
  if (!canChangeLead(actor, lead.assignedTo)) throw new AppError("FORBIDDEN", LEAD_CHANGE_REFUSED);
  return true;
}

/**
 * The same check before work that starts outside the lead's transaction (a Dentalink booking from the lead):
 * 404 for no such lead, 403 for an actor who may not change it.
 */
export async function requireLeadChange(db: Database, leadId: string, actor: StaffActor): Promise<void> {
  const lead = await leadAssignee(db, leadId);
  if (!lead) throw new AppError("NOT_FOUND", "No encontramos ese lead.");
  if (!canChangeLead(actor, lead.assignedTo)) throw new AppError("FORBIDDEN", LEAD_CHANGE_REFUSED);
}

export interface MoveInput {
  leadId: string;
  /** The status the staff member saw (the form's hidden field). */
  from: LeadStatus;
  to: LeadStatus;
  reason?: string | null;
  actor: StaffActor;
}

/**
 * A status change (ADR 025): checked against the pipeline, applied only if the lead still has the status the staff
 * member saw (two people moving the same lead at once: the second gets a conflict, never a silent overwrite), and
 * written with its history row and audit entry in one transaction.
 */
export async function moveLead(db: Database, input: MoveInput, now = new Date()): Promise<PipelineOutcome> {
  const check = checkTransition(input.from, input.to, input.reason);
  if (!check.ok) {
    const code = canTransition(input.from, input.to) ? "VALIDATION" : "CONFLICT";
    throw new AppError(code, check.error);
  }
  const applied = await db.transaction(async (tx) => {
    if (!(await lockForChange(tx, input.leadId, input.actor))) return false;
    const updated = await updateStatusIf(tx, {
      leadId: input.leadId,
      from: input.from,
      to: input.to,
      reason: check.reason,
      stampsContact: check.stampsContact,
      at: now,
    });
    if (!updated) return false;
    const details = { from: input.from, to: input.to, ...(check.reason ? { reason: check.reason } : {}) };
    await writeHistory(tx, {
      leadId: input.leadId,
      kind: "status",
      text: "",
      actorId: input.actor.id,
      details,
      at: now,
    });
    await writeAudit(
      tx,
      input.actor,
      "lead.status_changed",
      {
        leadId: input.leadId,
        from: input.from,
        status: input.to,
        ...(check.reason ? { reason: check.reason } : {}),
      },
      now,
    );
    return true;
  });
  if (!applied) return staleOrMissing(db, input.leadId);
  const reason = check.reason ? ` (${lostReasonLabels[check.reason]})` : "";
  return { status: input.to, message: `El lead quedó como «${leadStatusLabels[input.to]}»${reason}.` };
}

/**
 * 'Marcar contactado' (on any lead, as the clinic's specification has it; stamps the last contact): new → contacted, lost → reopened as
 * contacted, a lead further along keeps its stage and records the contact. A converted lead is final.
 */
export async function recordContact(
  db: Database,
  input: { leadId: string; from: LeadStatus; actor: StaffActor },
  now = new Date(),
): Promise<PipelineOutcome> {
  const to = contactOutcome(input.from);
  if (!to) {
    throw new AppError("CONFLICT", "Un lead convertido ya no cambia de estado.");
  }
  if (to !== input.from) return moveLead(db, { ...input, to }, now);
  const applied = await db.transaction(async (tx) => {
    if (!(await lockForChange(tx, input.leadId, input.actor))) return false;
    if (!(await stampContactIf(tx, input.leadId, input.from, now))) return false;
    await writeHistory(tx, {
      leadId: input.leadId,
      kind: "status",
      text: "",
      actorId: input.actor.id,
      details: { from: input.from, to, contact: true },
      at: now,
    });
    await writeAudit(tx, input.actor, "lead.contacted", { leadId: input.leadId, status: to }, now);
    return true;
  });
  if (!applied) return staleOrMissing(db, input.leadId);
  return { status: to, message: `Contacto registrado; el lead sigue «${leadStatusLabels[to]}».` };
}

/**
 * A successful Dentalink booking from a lead (ADR 019), inside the sync's transaction: the lead moves to
 * 'scheduled' when the pipeline allows it from where it is. A lost lead that books is reopened first (lost →
 * contacted → scheduled, each move with its history row and audit entry, ADR 025) so it counts in the funnel
 * again. A converted lead keeps its status (the sync shows in its history); its contact is stamped.
 */
export async function scheduleAfterSync(
  tx: Database,
  input: { leadId: string; syncId: string; actor: StaffActor; at: Date },
): Promise<void> {
  const from = await lockLeadStatus(tx, input.leadId);
  if (!from) return;
  const steps: Array<[LeadStatus, LeadStatus]> =
    from === "lost"
      ? [
          ["lost", "contacted"],
          ["contacted", "scheduled"],
        ]
      : canTransition(from, "scheduled")
        ? [[from, "scheduled"]]
        : [];
  if (steps.length === 0) {
    await stampContactIf(tx, input.leadId, from, input.at);
    return;
  }
  for (const [stepFrom, stepTo] of steps) {
    const check = checkTransition(stepFrom, stepTo);
    if (!check.ok) throw new Error(`pipeline refused ${stepFrom} → ${stepTo} after a Dentalink booking`);
    if (
      !(await updateStatusIf(tx, {
        leadId: input.leadId,
        from: stepFrom,
        to: stepTo,
        reason: null,
        stampsContact: check.stampsContact,
        at: input.at,
      }))
    ) {
      throw new Error("lead changed under its row lock");
    }
    await writeHistory(tx, {
      leadId: input.leadId,
      kind: "status",
      text: "",
      actorId: input.actor.id,
      details: { from: stepFrom, to: stepTo, dentalinkSyncId: input.syncId },
      at: input.at,
    });
    await writeAudit(
      tx,
      input.actor,
      "lead.status_changed",
      { leadId: input.leadId, from: stepFrom, status: stepTo, dentalinkSyncId: input.syncId },
      input.at,
    );
  }
}

/** A staff note (≤ 2,000 characters, stored and shown as plain text). */
export async function addNote(
  db: Database,
  input: { leadId: string; text: string; actor: StaffActor },
  now = new Date(),
): Promise<{ message: string }> {
  const text = input.text.trim();
  if (text.length === 0 || text.length > NOTE_MAX_LENGTH) {
    throw new AppError(
      "VALIDATION",
      `La nota debe tener entre 1 y ${NOTE_MAX_LENGTH.toLocaleString("es-CL")} caracteres.`,
    );
  }
  const added = await db.transaction(async (tx) => {
    if (!(await lockForChange(tx, input.leadId, input.actor))) return false;
    if (!(await touchLead(tx, input.leadId, now))) return false;
    const id = await writeHistory(tx, {
      leadId: input.leadId,
      kind: "note",
      text,
      actorId: input.actor.id,
      at: now,
    });
    await writeAudit(tx, input.actor, "lead.note_added", { leadId: input.leadId, historyId: id }, now);
    return true;
  });
  if (!added) throw new AppError("NOT_FOUND", "No encontramos ese lead.");
  return { message: "Nota agregada." };
}

/** An admin gives the lead to another active asesor (or to nobody). Asesores cannot: 403. */
export async function reassignLead(
  db: Database,
  input: { leadId: string; assigneeId: string | null; actor: StaffActor },
  now = new Date(),
): Promise<{ message: string }> {
  if (!isAdmin(input.actor)) {
    throw new AppError("FORBIDDEN", "Solo un administrador puede reasignar leads.");
  }
  if (input.assigneeId && !(await isActiveAsesor(db, input.assigneeId))) {
    throw new AppError("VALIDATION", "Elige un asesor activo.");
  }
  const changed = await db.transaction(async (tx) => {
    const result = await setAssignee(tx, input.leadId, input.assigneeId, now);
    if (!result) return null;
    if (result.previous === input.assigneeId) return result;
    await writeHistory(tx, {
      leadId: input.leadId,
      kind: "assignment",
      text: "",
      actorId: input.actor.id,
      details: { from: result.previous, to: input.assigneeId },
      at: now,
    });
    await writeAudit(
      tx,
      input.actor,
      "lead.assigned",
      { leadId: input.leadId, from: result.previous, to: input.assigneeId },
      now,
    );
    return result;
  });
  if (!changed) throw new AppError("NOT_FOUND", "No encontramos ese lead.");
  if (!input.assigneeId) return { message: "El lead quedó sin asignar." };
  const names = await staffNames(db, [input.assigneeId]);
  return { message: `Lead asignado a ${names.get(input.assigneeId) ?? "el asesor elegido"}.` };
}

/**
 * Away (no new leads) or back: an asesor for themselves, an admin for any asesor. Anyone else, or an asesor
 * setting someone else's: 403.
 */
export async function setAvailability(
  db: Database,
  input: { userId: string; away: boolean; actor: StaffActor },
  now = new Date(),
): Promise<{ message: string }> {
  const own = input.userId === input.actor.id;
  if (!own && !isAdmin(input.actor)) {
    throw new AppError("FORBIDDEN", "Solo un administrador puede cambiar la disponibilidad de otra persona.");
  }
  if (!(await isActiveAsesor(db, input.userId))) {
    throw new AppError("VALIDATION", "Solo los asesores activos reciben leads.");
  }
  await db.transaction(async (tx) => {
    await setAway(tx, input.userId, input.away, now);
    await writeAudit(tx, input.actor, "staff.availability", { userId: input.userId, away: input.away }, now);
  });
  if (own) {
    return {
      message: input.away
        ? "Quedaste ausente: no recibirás leads nuevos."
        : "Vuelves a recibir leads nuevos.",
    };
  }
  return {
    message: input.away
      ? "El asesor quedó ausente: no recibirá leads nuevos."
      : "El asesor vuelve a recibir leads nuevos.",
  };
}
