import type { Database } from "~/db/client.server";
import { addDays, clinicDate, startOfClinicDay } from "~/domain/clinic-time";
import { formatChileanPhone, formatClinicDateTime, formatDate } from "~/domain/format";
import type { PrivacyRequestStatus, PrivacyRight } from "~/domain/privacy";
import { clockLabel, DUE_SOON_DAYS, extensionVerdict, readClock } from "~/domain/privacy-clock";
import {
  canTake,
  eventLabels,
  identityLabel,
  labelOf,
  rightEffects,
  rightLabels,
  statusLabels,
  statusTones,
} from "~/domain/privacy-requests";
import { formatRut } from "~/domain/rut";
import { AppError } from "~/lib/base/errors";
import type { ClockDto, QueueCountsDto, RequestDetailDto, RequestRowDto } from "./request-dto";
import { requestReference } from "./request-messages";
import { assertPrivacyStaff, type StaffActor } from "./request-decisions.server";
import {
  eventsOf,
  listRequests,
  openDueBy,
  requestById,
  requestsOfUser,
  statusGroups,
  type PrivacyRequestRow,
} from "./request-repository.server";
import { queueFilterSchema, type QueueFilter } from "./request-schemas";
import { subjectDataFound } from "./request-subject-data.server";

/** The queue, the detail page, the dashboard's counts and the person's own list. */

export const QUEUE_LIMIT = 200;

const channelLabels: Record<string, string> = {
  cuenta: "Cuenta",
  publico: "Formulario público",
  clinica: "Clínica",
};

export function clockDto(dueAt: Date | null, now: Date): ClockDto | null {
  if (!dueAt) return null;
  const reading = readClock(dueAt, now);
  return { ...reading, dueDateLabel: formatDate(reading.dueDate), label: clockLabel(reading) };
}

function rowDto(row: PrivacyRequestRow, now: Date): RequestRowDto {
  const status = row.status as PrivacyRequestStatus;
  const open = status === "received" || status === "in_progress";
  return {
    id: row.id,
    reference: requestReference(row.id),
    right: row.right as PrivacyRight,
    rightLabel: labelOf(rightLabels, row.right),
    status,
    statusLabel: labelOf(statusLabels, row.status),
    statusTone: statusTones[status] ?? "neutral",
    channelLabel: channelLabels[row.channel] ?? row.channel,
    name: row.name,
    contact: row.email ?? (row.phone ? formatChileanPhone(row.phone) : "—"),
    createdLabel: formatClinicDateTime(row.createdAt),
    createdIso: row.createdAt.toISOString(),
    // The clock only matters while the clinic owes an answer.
    clock: open ? clockDto(row.dueAt, now) : null,
    extended: row.extendedAt !== null,
  };
}

/** `?estado=&derecho=&plazo=` → the queue, the nearest due date first. */
export async function privacyQueue(
  db: Database,
  actor: StaffActor,
  params: URLSearchParams,
  now = new Date(),
) {
  assertPrivacyStaff(actor);
  const filter: QueueFilter = queueFilterSchema.parse({
    estado: params.get("estado") ?? undefined,
    derecho: params.get("derecho") ?? undefined,
    plazo: params.get("plazo") ?? undefined,
  });
  const dueBefore =
    filter.plazo === "vencidas"
      ? now
      : filter.plazo === "semana"
        ? startOfClinicDay(addDays(clinicDate(now), DUE_SOON_DAYS + 1))
        : undefined;
  const rows = await listRequests(db, {
    statuses: filter.plazo
      ? [...statusGroups.abiertas]
      : (statusGroups[filter.estado] as PrivacyRequestStatus[] | null),
    right: filter.derecho,
    dueBefore,
    limit: QUEUE_LIMIT,
  });
  return {
    filter: { estado: filter.estado, derecho: filter.derecho ?? null, plazo: filter.plazo ?? null },
    limit: QUEUE_LIMIT,
    counts: await privacyQueueCounts(db, now),
    requests: rows.map((row) => rowDto(row, now)),
  };
}

/** Overdue and due-this-week counts (the admin navigation and dashboard). */
export async function privacyQueueCounts(db: Database, now = new Date()): Promise<QueueCountsDto> {
  const rows = await openDueBy(db, startOfClinicDay(addDays(clinicDate(now), DUE_SOON_DAYS + 1)));
  let overdue = 0;
  let dueThisWeek = 0;
  for (const row of rows) {
    if (row.dueAt!.getTime() <= now.getTime()) overdue += 1;
    else dueThisWeek += 1;
  }
  return { overdue, dueThisWeek };
}

function effectOf(right: PrivacyRight, hasAccount: boolean): string {
  switch (rightEffects[right]) {
    case "export":
      return hasAccount
        ? "Aprobar registra que la clínica envía los datos a la persona (o la persona los descarga desde Mis Datos)."
        : "Aprobar registra que la clínica envía los datos a la persona en un formato estructurado.";
    case "record_correction":
      return "Corrige primero los datos donde estén (perfil, Dentalink) y escribe qué se corrigió: la persona lo recibirá.";
    case "erase":
      return "Aprobar elimina o anonimiza ahora los datos no retenidos por ley; lo retenido queda bloqueado y se informa a la persona qué, por qué y hasta cuándo.";
    case "object":
      return "Aprobar detiene el perfilamiento (puntaje de leads) y la publicidad para esta persona.";
    case "object_profiling":
      return "Aprobar detiene el puntaje automático de sus leads.";
    case "block":
      return "Aprobar deja sus datos bloqueados: se conservan pero no se usan.";
  }
}

/** One request for the clinic: identity, right, data found, clock, history and what may be done now. */
export async function privacyRequestDetail(
  db: Database,
  actor: StaffActor,
  id: string,
  now = new Date(),
): Promise<RequestDetailDto> {
  assertPrivacyStaff(actor);
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new AppError("NOT_FOUND", "No encontramos esa solicitud.");
  const row = await requestById(db, id);
  if (!row) throw new AppError("NOT_FOUND", "No encontramos esa solicitud.");
  const status = row.status as PrivacyRequestStatus;
  const events = await eventsOf(db, row.id);
  // Nothing is looked up about a person who has not proven control of the contact.
  const verified = status !== "unverified" && status !== "expired";
  const dataFound = verified ? await subjectDataFound(db, row) : null;
  return {
    ...rowDto(row, now),
    identity: identityLabel({ status, verifiedVia: row.verifiedVia }),
    email: row.email,
    phone: row.phone ? formatChileanPhone(row.phone) : null,
    rut: row.rut ? formatRut(row.rut) : null,
    details: row.details,
    blockingRequested: row.blockingRequested,
    extensionReason: row.extensionReason,
    decisionReason: row.decisionReason,
    effect: effectOf(row.right as PrivacyRight, row.userId !== null),
    dataFound,
    events: events.map((event) => ({
      id: event.id,
      kindLabel: labelOf(eventLabels, event.kind),
      text: event.text,
      actor:
        event.actorEmail ??
        (event.kind === "created" || event.kind === "verified" ? "La persona" : "Sistema"),
      atLabel: formatClinicDateTime(event.at),
      atIso: event.at.toISOString(),
    })),
    actions: {
      note: canTake(status, "note"),
      extend:
        canTake(status, "extend") &&
        row.dueAt !== null &&
        extensionVerdict({ dueAt: row.dueAt, extendedAt: row.extendedAt }, now) === "allowed",
      decide: canTake(status, "approve"),
    },
  };
}

/** The person's own requests (Mis Datos), by the session's user id only. */
export async function ownRequests(db: Database, userId: string, now = new Date()): Promise<RequestRowDto[]> {
  const rows = await requestsOfUser(db, userId);
  return rows.map((row) => rowDto(row, now));
}
