import { isProfessionalTitle, professionalTitleLabels } from "~/domain/dentist-name";
import type { Database } from "~/db/client.server";
import { assertAdmin, type AdminActor } from "./admin-actor.server";
import { dateLabel, type DateLabel } from "./admin-format";
import {
  AUDIT_PAGE_SIZE,
  auditActionLabel,
  requestKindLabels,
  requestStatusLabel,
  roleLabel,
} from "./admin-options";
import { latestAuditEntries, type AuditRow } from "./audit-repository.server";

export interface AuditEntryDto {
  id: string;
  created: DateLabel;
  action: string;
  actionLabel: string;
  actorEmail: string | null;
  actorRoles: string;
  targetEmail: string | null;
  targetUserId: string | null;
  detail: string;
  ip: string | null;
}

const MAX_DETAIL_LENGTH = 300;

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "";
}

const titleText = (value: unknown) =>
  isProfessionalTitle(value) ? professionalTitleLabels[value] : "sin título";

/** The details column in Spanish for the actions we know; other areas' entries as "key: value". */
export function describeAuditDetails(action: string, details: Record<string, unknown>): string {
  let result: string;
  if ((action === "role.grant" || action === "role.revoke") && typeof details.role === "string") {
    result = `Rol: ${roleLabel(details.role)}`;
  } else if (action === "user.title") {
    result = `Título: ${titleText(details.from)} → ${titleText(details.to)}`;
  } else if (action === "user.deactivate" && typeof details.sessionsRevoked === "number") {
    result = `Sesiones cerradas: ${details.sessionsRevoked}`;
  } else if (action === "request.status") {
    const kind = (requestKindLabels as Record<string, string>)[text(details.kind)] ?? text(details.kind);
    const reference = text(details.requestId).slice(0, 8).toUpperCase();
    result = `${kind} ${reference}: ${requestStatusLabel(text(details.from))} → ${requestStatusLabel(text(details.to))}`;
  } else {
    result = Object.entries(details)
      .map(([key, value]) => `${key}: ${text(value)}`)
      .join("; ");
  }
  return result.length > MAX_DETAIL_LENGTH ? `${result.slice(0, MAX_DETAIL_LENGTH - 1)}…` : result;
}

export function auditEntryDto(row: AuditRow): AuditEntryDto {
  return {
    id: row.id,
    created: dateLabel(row.createdAt),
    action: row.action,
    actionLabel: auditActionLabel(row.action),
    actorEmail: row.actorEmail,
    actorRoles: row.actorRoles.split(",").filter(Boolean).map(roleLabel).join(", "),
    targetEmail: row.targetEmail,
    targetUserId: row.targetUserId,
    detail: describeAuditDetails(row.action, row.details),
    ip: row.ip,
  };
}

/** The newest audit entries (all, or those about one user). */
export async function listAuditEntries(
  db: Database,
  options: { limit?: number; targetUserId?: string } = {},
): Promise<AuditEntryDto[]> {
  const rows = await latestAuditEntries(db, {
    limit: options.limit ?? AUDIT_PAGE_SIZE,
    targetUserId: options.targetUserId,
  });
  return rows.map(auditEntryDto);
}

/** /admin/auditoria: the latest entries of everyone. */
export async function auditLogPage(
  db: Database,
  actor: AdminActor,
): Promise<{ entries: AuditEntryDto[]; limit: number }> {
  assertAdmin(actor);
  return { entries: await listAuditEntries(db), limit: AUDIT_PAGE_SIZE };
}
