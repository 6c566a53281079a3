import type { Database } from "~/db/client.server";
import type { PrivacyRequestStatus, PrivacyRight } from "~/domain/privacy";
import { dueDate, extendedDueAt, extensionVerdict } from "~/domain/privacy-clock";
import { nextState, restrictionsForRight, rightEffects } from "~/domain/privacy-requests";
import { hasAdminRole } from "~/domain/roles";
import { objectToProfiling } from "~/features/consent/profiling-service.server";
import { addRestriction, endRestrictions } from "~/features/consent/restrictions.server";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import { clinicFacts } from "~/lib/base/env.server";
import { AppError, isAppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import {
  approvalMessage,
  extensionMessage,
  partialApprovalMessage,
  refusalMessage,
  requestReference,
  type RetainedData,
} from "./request-messages";
import { queuePersonMessage } from "./request-notifications.server";
import {
  addEvent,
  audit,
  lockRequest,
  updateRequest,
  type PrivacyRequestRow,
} from "./request-repository.server";
import type { StaffAction } from "./request-schemas";
import { recipientOf, subjectOf } from "./request-service.server";
import { requestExport } from "./data-export-service.server";
import { executeErasure } from "./request-erasure.server";

/**
 * The clinic's side of a request (/admin/privacidad/:id; ADR 037): notes, the one extension, and the decisions —
 * approve and execute, partially approve, refuse with a reason. Each step locks the request, follows the state
 * machine (`domain/privacy-requests.ts`), is written to the request's history and to the audit log, and is told
 * to the person through the outbox, all in one transaction. Only admins act (an asesor does not read requests:
 * they carry identity and health-related wishes, and the asesor's work — leads — does not need them).
 */

export interface StaffActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

export function assertPrivacyStaff(actor: StaffActor): void {
  if (!hasAdminRole(actor.roles)) {
    throw new AppError("FORBIDDEN", "No tienes permiso para gestionar solicitudes de datos personales.");
  }
}

const ACTION_OF_INTENT = {
  note: "note",
  extend: "extend",
  approve: "approve",
  partially_approve: "partially_approve",
  refuse: "refuse",
} as const;

const NOT_NOW: Record<StaffAction["intent"], string> = {
  note: "Esta solicitud no admite notas.",
  extend: "Solo se puede prorrogar una solicitud abierta.",
  approve: "Esta solicitud ya no está abierta: no se puede aprobar.",
  partially_approve: "Esta solicitud ya no está abierta: no se puede aprobar en parte.",
  refuse: "Esta solicitud ya no está abierta: no se puede rechazar.",
};

export async function actOnRequest(
  db: Database,
  actor: StaffActor,
  requestId: string,
  action: StaffAction,
  now = new Date(),
): Promise<{ message: string }> {
  assertPrivacyStaff(actor);
  const result = await db.transaction(async (tx) => {
    const row = await lockRequest(tx, requestId);
    if (!row) throw new AppError("NOT_FOUND", "No encontramos esa solicitud.");
    const status = row.status as PrivacyRequestStatus;
    const next = nextState(status, ACTION_OF_INTENT[action.intent]);
    if (next === null) throw new AppError("CONFLICT", NOT_NOW[action.intent]);
    const reference = requestReference(row.id);
    const auditEntry = (name: string, details: Record<string, unknown> = {}) =>
      audit(tx, {
        actorId: actor.id,
        actorRoles: actor.roles,
        action: `privacy.request_${name}`,
        targetUserId: row.userId,
        details: { requestId: row.id, right: row.right, from: status, to: next, ...details },
        ip: actor.ip,
      });

    switch (action.intent) {
      case "note": {
        await addEvent(tx, {
          requestId: row.id,
          kind: "note",
          text: action.text,
          actorId: actor.id,
          at: now,
        });
        if (next !== status) await updateRequest(tx, row.id, { status: next });
        await auditEntry("note");
        return `Nota agregada a la solicitud N.º ${reference}.`;
      }
      case "extend": {
        const verdict = extensionVerdict({ dueAt: row.dueAt!, extendedAt: row.extendedAt }, now);
        if (verdict === "already_extended") {
          throw new AppError("CONFLICT", "El plazo ya se prorrogó una vez: la ley no permite otra prórroga.");
        }
        if (verdict === "term_over") {
          throw new AppError("CONFLICT", "El plazo ya venció: no se puede prorrogar. Responde cuanto antes.");
        }
        const dueAt = extendedDueAt(row.dueAt!);
        await updateRequest(tx, row.id, {
          status: next,
          dueAt,
          extendedAt: now,
          extensionReason: action.reason,
        });
        await addEvent(tx, {
          requestId: row.id,
          kind: "extended",
          text: action.reason,
          actorId: actor.id,
          details: { from: dueDate(row.dueAt!), to: dueDate(dueAt) },
          at: now,
        });
        await queuePersonMessage(
          tx,
          recipientOf(row),
          extensionMessage(clinicFacts(), {
            id: row.id,
            right: row.right as PrivacyRight,
            dueDate: dueDate(dueAt),
            reason: action.reason,
          }),
          { key: "extended", actorId: actor.id },
        );
        await auditEntry("extended", { dueDate: dueDate(dueAt) });
        return `Plazo prorrogado: la solicitud N.º ${reference} vence el ${dueDate(dueAt)}. Avisamos a la persona.`;
      }
      case "approve": {
        await liftTemporaryBlocking(tx, row, actor, now);
        const outcome = await execute(tx, row, action.text, actor, now);
        await decide(tx, row, next, actor, action.text, now, outcome.record);
        await queuePersonMessage(
          tx,
          recipientOf(row),
          approvalMessage(clinicFacts(), {
            id: row.id,
            right: row.right as PrivacyRight,
            detail: action.text,
            retained: outcome.retained,
            exportBySelf: outcome.exportBySelf,
          }),
          { key: "decided", actorId: actor.id },
        );
        await auditEntry("approved", { outcome: outcome.summary });
        return `Solicitud N.º ${reference} aprobada y ejecutada. Avisamos a la persona.`;
      }
      case "partially_approve":
      case "refuse": {
        // Both give the reason and the right to complain to the Agency; a partial approval executes nothing by itself.
        const refused = action.intent === "refuse";
        await liftTemporaryBlocking(tx, row, actor, now);
        await decide(
          tx,
          row,
          next,
          actor,
          action.reason,
          now,
          refused ? { refused: true } : { partial: true },
        );
        const message = refused ? refusalMessage : partialApprovalMessage;
        await queuePersonMessage(
          tx,
          recipientOf(row),
          message(clinicFacts(), { id: row.id, right: row.right as PrivacyRight, reason: action.reason }),
          { key: "decided", actorId: actor.id },
        );
        await auditEntry(refused ? "refused" : "partially_approved");
        return `Solicitud N.º ${reference} ${refused ? "rechazada" : "aprobada en parte"}. Avisamos a la persona, con su derecho a reclamar.`;
      }
    }
  });
  kickOutboxWorker();
  logger.info({ requestId, intent: action.intent, actorId: actor.id }, "privacy request step");
  return { message: result };
}

/** The temporary blocking (asked while deciding) ends with the decision, before what the decision puts in force. */
async function liftTemporaryBlocking(tx: Database, row: PrivacyRequestRow, actor: StaffActor, now: Date) {
  const lifted = await endRestrictions(tx, { requestId: row.id, now });
  if (lifted > 0)
    await addEvent(tx, { requestId: row.id, kind: "blocking_lifted", actorId: actor.id, at: now });
}

/** Closes the request: the decision and its history entry. */
async function decide(
  tx: Database,
  row: PrivacyRequestRow,
  status: PrivacyRequestStatus,
  actor: StaffActor,
  reason: string,
  now: Date,
  outcome: Record<string, unknown>,
) {
  await updateRequest(tx, row.id, {
    status,
    decidedAt: now,
    decidedBy: actor.id,
    decisionReason: reason || null,
    outcome,
  });
  await addEvent(tx, { requestId: row.id, kind: status, text: reason, actorId: actor.id, at: now });
}

interface Execution {
  record: Record<string, unknown>;
  summary: string;
  retained?: RetainedData[];
  exportBySelf?: boolean;
}

/** What approving the right does (`rightEffects`), recorded in the request's history as `executed`. */
async function execute(
  tx: Database,
  row: PrivacyRequestRow,
  text: string,
  actor: StaffActor,
  now: Date,
): Promise<Execution> {
  const right = row.right as PrivacyRight;
  let execution: Execution;
  switch (rightEffects[right]) {
    case "export":
      // An account holder gets the same export as Mis Datos' 'Descargar mis datos' (queued now, downloaded there, 7
      // days); someone without an account gets it from the clinic at the proven contact.
      if (row.userId && (await queueExportFor(tx, row.userId, actor, now))) {
        execution = { record: { export: "self_service" }, summary: "self_service", exportBySelf: true };
      } else {
        execution = { record: { export: "clinic_sends" }, summary: "clinic_sends" };
      }
      break;
    case "record_correction":
      if (text.trim().length < 5) {
        throw new AppError("VALIDATION", "Indica qué datos se corrigieron (lo verá la persona).");
      }
      execution = { record: { corrected: text }, summary: "corrected" };
      break;
    case "erase":
      execution = await executeErasure(tx, row, now);
      break;
    case "object":
    case "object_profiling":
    case "block": {
      const kinds = restrictionsForRight(right);
      for (const kind of kinds) {
        if (kind === "perfilamiento") {
          // The person's leads are flagged too and stay unscored (art. 8 bis).
          await objectToProfiling(tx, subjectOf(row), { requestId: row.id, createdBy: actor.id, now });
          continue;
        }
        await addRestriction(tx, {
          kind,
          subject: subjectOf(row),
          requestId: row.id,
          reason: `Solicitud N.º ${requestReference(row.id)} aprobada.`,
          createdBy: actor.id,
          now,
        });
      }
      execution = { record: { restrictions: kinds }, summary: kinds.join(",") };
      break;
    }
  }
  await addEvent(tx, {
    requestId: row.id,
    kind: "executed",
    text: executedText(execution),
    actorId: actor.id,
    details: execution.record,
    at: now,
  });
  return execution;
}

/** Queues the person's export; false when it cannot be (their daily limit reached): the clinic sends it then. */
async function queueExportFor(tx: Database, userId: string, actor: StaffActor, now: Date): Promise<boolean> {
  try {
    await requestExport(tx, userId, { roles: actor.roles }, now);
    return true;
  } catch (error) {
    if (isAppError(error) && error.code === "RATE_LIMITED") return false;
    throw error;
  }
}

function executedText(execution: Execution): string {
  if (execution.record.export === "self_service") {
    return "Se preparó la descarga de sus datos en Mis Datos (ZIP con JSON y resumen en PDF, 7 días).";
  }
  if (execution.record.export === "clinic_sends") {
    return "La clínica envía los datos a la persona en un formato estructurado.";
  }
  if (typeof execution.record.corrected === "string") return `Corregido: ${execution.record.corrected}`;
  if (Array.isArray(execution.record.restrictions)) {
    return `Restricciones en vigor: ${(execution.record.restrictions as string[]).join(", ")}.`;
  }
  return execution.summary;
}
