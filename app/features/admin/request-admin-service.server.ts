import type { Database } from "~/db/client.server";
import { formatChileanPhone } from "~/domain/format";
import { callbackTimeLabels } from "~/features/requests/request-options";
import { logger } from "~/lib/base/logger.server";
import type { AdminActor } from "./admin-actor.server";
import { STAFF_ROLES } from "~/domain/roles";
import { AppError } from "~/lib/base/errors";
import { dateLabel, type DateLabel } from "./admin-format";
import {
  REQUESTS_LIST_LIMIT,
  requestKindLabels,
  requestStatusLabel,
  type RequestStatus,
} from "./admin-options";
import { requestFilterSchema, requestStatusChangeSchema } from "./admin-schemas";
import { recordAudit } from "./audit-repository.server";
import { listCallbackRequests, lockRequestStatus, setRequestStatus } from "./request-admin-repository.server";

interface StatusDto {
  status: string;
  statusLabel: string;
}

export interface CallbackRequestDto extends StatusDto {
  id: string;
  reference: string;
  name: string;
  phone: string;
  phoneHref: string;
  email: string | null;
  preferredTimeLabel: string;
  reason: string;
  /** Where it came from: the public form or a reminder's 'Necesito hablar con alguien' link (issue 23). */
  sourceLabel: string;
  created: DateLabel;
}

export interface RequestsPageDto {
  status: RequestStatus | null;
  limit: number;
  callbacks: CallbackRequestDto[];
}

// The reference the requester was shown on the confirmation page (same rule as the public forms).
const reference = (id: string) => id.slice(0, 8).toUpperCase();

/**
 * Call-back requests are the asesores' work as much as the admins' (issue 23: a reminder's 'Necesito hablar con
 * alguien' reaches the asesores at once): any staff role lists and handles them.
 */
function assertMayHandleCallbacks(actor: AdminActor): void {
  if (!actor.roles.some((role) => (STAFF_ROLES as readonly string[]).includes(role))) {
    throw new AppError("FORBIDDEN", "No tienes permiso para hacer este cambio.");
  }
}

/** `?estado=` → the call-back requests, newest first (data-subject requests are /admin/privacidad). */
export async function listRequests(
  db: Database,
  actor: AdminActor,
  params: URLSearchParams,
): Promise<RequestsPageDto> {
  assertMayHandleCallbacks(actor);
  const { estado } = requestFilterSchema.parse({ estado: params.get("estado") ?? undefined });
  const options = { status: estado, limit: REQUESTS_LIST_LIMIT };
  const callbacks = await listCallbackRequests(db, options);
  return {
    status: estado ?? null,
    limit: REQUESTS_LIST_LIMIT,
    callbacks: callbacks.map((row) => ({
      id: row.id,
      reference: reference(row.id),
      name: row.name,
      phone: formatChileanPhone(row.phone),
      phoneHref: `tel:${row.phone}`,
      email: row.email,
      preferredTimeLabel:
        (callbackTimeLabels as Record<string, string>)[row.preferredTime] ?? row.preferredTime,
      reason: row.reason,
      sourceLabel: row.source === "recordatorio" ? "Recordatorio de cita" : "Formulario web",
      status: row.status,
      statusLabel: requestStatusLabel(row.status),
      created: dateLabel(row.createdAt),
    })),
  };
}

/** Moves a request to another status; the change and its audit row are one transaction. */
export async function changeRequestStatus(
  db: Database,
  actor: AdminActor,
  form: Record<string, string>,
): Promise<{ message: string }> {
  assertMayHandleCallbacks(actor);
  const parsed = requestStatusChangeSchema.safeParse(form);
  if (!parsed.success) {
    throw new AppError("VALIDATION", parsed.error.issues[0]?.message ?? "La solicitud no es válida.");
  }
  const { kind, requestId, status } = parsed.data;
  const label = `${requestKindLabels[kind]} ${reference(requestId)}`;

  return db.transaction(async (tx) => {
    const from = await lockRequestStatus(tx, kind, requestId);
    if (from === undefined) throw new AppError("NOT_FOUND", "No encontramos esa solicitud.");
    if (from === status) {
      return {
        message: `${label} ya estaba en estado «${requestStatusLabel(status)}». No se hicieron cambios.`,
      };
    }
    await setRequestStatus(tx, kind, requestId, status);
    await recordAudit(tx, {
      actorId: actor.id,
      actorRoles: actor.roles,
      action: "request.status",
      targetUserId: null,
      details: { kind, requestId, from, to: status },
      ip: actor.ip,
    });
    logger.info({ actorId: actor.id, kind, requestId, from, to: status }, "admin changed a request status");
    return {
      message: `${label}: estado cambiado de «${requestStatusLabel(from)}» a «${requestStatusLabel(status)}».`,
    };
  });
}
