import { createHash } from "node:crypto";
import type { IncidentFieldValues } from "./components/incident-fields";
import type { Database } from "~/db/client.server";
import { clinicDate, clinicInstant, clinicTime } from "~/domain/clinic-time";
import { formatClinicDateTime, formatClinicDateTimeNumeric, formatChileanPhone } from "~/domain/format";
import {
  defaultIncidentNotice,
  incidentNoticeSubject,
  incidentRegisterCsv,
  incidentStatusLabels,
  MAX_NOTICE_RECIPIENTS,
  mustNotifyPeople,
  parseAffectedContacts,
} from "~/domain/privacy-incidents";
import { hasAdminRole } from "~/domain/roles";
import { enqueue } from "~/features/outbox/outbox.server";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import { AppError } from "~/lib/base/errors";
import { clinicFacts } from "~/lib/base/env.server";
import { incidentNoticeEmail } from "./incident-notice-email";
import {
  accountsByEmail,
  auditIncident,
  incidentRow,
  insertIncident,
  insertNotice,
  listIncidentRows,
  noticesOf,
  notifiedEmails,
  updateIncident,
  type IncidentRow,
} from "./incident-repository.server";
import {
  incidentNoticeSchema,
  incidentNoticeSendSchema,
  incidentSchema,
  type IncidentInput,
} from "./incident-schema";

/**
 * The breach register (Ley 19.628 art. 14 sexies as added by Ley 21.719; ADR 038): admins record incidents, edit
 * and close them, tell the people affected by e-mail through the outbox with a text they reviewed (each address
 * once per incident), and export the register for the Agency. Every change is audited.
 */

export interface PrivacyActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

function assertAdmin(actor: PrivacyActor) {
  if (!hasAdminRole(actor.roles))
    throw new AppError("FORBIDDEN", "No tienes permiso para ver el registro de incidentes.");
}

function validation(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): AppError {
  return new AppError("VALIDATION", error.issues[0]?.message ?? "Revisa los datos del formulario.");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function requireIncident(db: Pick<Database, "select">, id: string, lock = false): Promise<IncidentRow> {
  const row = UUID.test(id) ? await incidentRow(db, id, { lock }) : undefined;
  if (!row) throw new AppError("NOT_FOUND", "No encontramos ese incidente.");
  return row;
}

/** A `datetime-local` value (clinic time) → the instant. */
function instantOf(value: string): Date {
  const [date, time] = value.split("T") as [string, string];
  return clinicInstant(date, time);
}

const localValue = (instant: Date | null) => (instant ? `${clinicDate(instant)}T${clinicTime(instant)}` : "");
const tableDate = (instant: Date | null) => (instant ? formatClinicDateTimeNumeric(instant) : "");

/** The form's values → the row's, with the checks between fields. */
function incidentValues(input: IncidentInput, now: Date) {
  const discoveredAt = instantOf(input.discoveredAt);
  const occurredAt = input.occurredAt ? instantOf(input.occurredAt) : null;
  const agencyNotifiedAt = input.agencyNotifiedAt ? instantOf(input.agencyNotifiedAt) : null;
  const peopleNotifiedAt = input.peopleNotifiedAt ? instantOf(input.peopleNotifiedAt) : null;
  const future = 5 * 60_000;
  for (const [instant, label] of [
    [occurredAt, "cuándo ocurrió"],
    [discoveredAt, "cuándo se descubrió"],
    [agencyNotifiedAt, "el aviso a la Agencia"],
    [peopleNotifiedAt, "el aviso a las personas"],
  ] as const) {
    if (instant && instant.getTime() > now.getTime() + future)
      throw new AppError("VALIDATION", `La fecha de ${label} no puede estar en el futuro.`);
  }
  if (occurredAt && occurredAt > discoveredAt)
    throw new AppError("VALIDATION", "Un incidente no puede descubrirse antes de ocurrir.");
  return {
    title: input.title,
    description: input.description,
    occurredAt,
    discoveredAt,
    dataCategories: input.dataCategories,
    sensitiveData: input.sensitiveData,
    peopleAffected: input.peopleAffected ?? null,
    affectedDescription: input.affectedDescription,
    measures: input.measures,
    agencyNotifiedAt,
    peopleNotifiedAt,
  };
}

export interface IncidentListItem {
  id: string;
  title: string;
  discovered: string;
  discoveredIso: string;
  sensitiveData: boolean;
  peopleAffected: number | null;
  agencyNotified: string | null;
  peopleNotified: string | null;
  notices: number;
  status: "open" | "closed";
  statusLabel: string;
}

function listItem(row: IncidentRow & { notices: number }): IncidentListItem {
  const status = row.status === "closed" ? "closed" : "open";
  return {
    id: row.id,
    title: row.title,
    discovered: formatClinicDateTimeNumeric(row.discoveredAt),
    discoveredIso: row.discoveredAt.toISOString(),
    sensitiveData: row.sensitiveData,
    peopleAffected: row.peopleAffected,
    agencyNotified: row.agencyNotifiedAt ? formatClinicDateTimeNumeric(row.agencyNotifiedAt) : null,
    peopleNotified: row.peopleNotifiedAt ? formatClinicDateTimeNumeric(row.peopleNotifiedAt) : null,
    notices: row.notices,
    status,
    statusLabel: incidentStatusLabels[status],
  };
}

export async function listIncidents(db: Database, actor: PrivacyActor): Promise<IncidentListItem[]> {
  assertAdmin(actor);
  return (await listIncidentRows(db)).map(listItem);
}

export interface IncidentPage {
  id: string;
  status: "open" | "closed";
  statusLabel: string;
  values: IncidentFieldValues;
  mustNotifyPeople: boolean;
  notices: { email: string; sent: string }[];
  /** The text proposed for the notice (the reviewed one once sent). */
  noticeText: string;
  noticeSubject: string;
}

function noticeFacts(row: IncidentRow) {
  const clinic = clinicFacts();
  return {
    clinicName: clinic.name,
    privacyEmail: clinic.privacyEmail,
    phone: formatChileanPhone(clinic.phone),
    title: row.title,
    occurred: row.occurredAt ? formatClinicDateTime(row.occurredAt) : null,
    discovered: formatClinicDateTime(row.discoveredAt),
    dataCategories: row.dataCategories,
    measures: row.measures,
  };
}

export async function incidentPage(db: Database, actor: PrivacyActor, id: string): Promise<IncidentPage> {
  assertAdmin(actor);
  const row = await requireIncident(db, id);
  const status = row.status === "closed" ? "closed" : "open";
  return {
    id: row.id,
    status,
    statusLabel: incidentStatusLabels[status],
    values: {
      title: row.title,
      description: row.description,
      occurredAt: localValue(row.occurredAt),
      discoveredAt: localValue(row.discoveredAt),
      dataCategories: row.dataCategories,
      sensitiveData: row.sensitiveData,
      peopleAffected: row.peopleAffected === null ? "" : String(row.peopleAffected),
      affectedDescription: row.affectedDescription,
      measures: row.measures,
      agencyNotifiedAt: localValue(row.agencyNotifiedAt),
      peopleNotifiedAt: localValue(row.peopleNotifiedAt),
    },
    mustNotifyPeople: mustNotifyPeople(row),
    notices: (await noticesOf(db, row.id)).map((notice) => ({
      email: notice.email ?? "",
      sent: formatClinicDateTimeNumeric(notice.createdAt),
    })),
    noticeText: row.notificationText ?? defaultIncidentNotice(noticeFacts(row)),
    noticeSubject: incidentNoticeSubject(clinicFacts().shortName),
  };
}

export async function recordIncident(
  db: Database,
  actor: PrivacyActor,
  form: Record<string, string>,
  now = new Date(),
): Promise<string> {
  assertAdmin(actor);
  const parsed = incidentSchema.safeParse(form);
  if (!parsed.success) throw validation(parsed.error);
  const values = incidentValues(parsed.data, now);
  return db.transaction(async (tx) => {
    const id = await insertIncident(tx, { ...values, createdBy: actor.id });
    await auditIncident(tx, {
      actorId: actor.id,
      actorRoles: actor.roles,
      ip: actor.ip,
      action: "privacy_incident.create",
      details: { incidentId: id, sensitiveData: values.sensitiveData, peopleAffected: values.peopleAffected },
    });
    return id;
  });
}

export async function editIncident(
  db: Database,
  actor: PrivacyActor,
  id: string,
  form: Record<string, string>,
  now = new Date(),
): Promise<void> {
  assertAdmin(actor);
  const parsed = incidentSchema.safeParse(form);
  if (!parsed.success) throw validation(parsed.error);
  const values = incidentValues(parsed.data, now);
  await db.transaction(async (tx) => {
    const row = await requireIncident(tx, id, true);
    if (row.status === "closed")
      throw new AppError("CONFLICT", "El incidente está cerrado: ya no se puede editar.");
    await updateIncident(tx, id, values);
    await auditIncident(tx, {
      actorId: actor.id,
      actorRoles: actor.roles,
      ip: actor.ip,
      action: "privacy_incident.update",
      details: { incidentId: id },
    });
  });
}

export async function closeIncident(db: Database, actor: PrivacyActor, id: string): Promise<void> {
  assertAdmin(actor);
  await db.transaction(async (tx) => {
    const row = await requireIncident(tx, id, true);
    if (row.status === "closed") throw new AppError("CONFLICT", "El incidente ya estaba cerrado.");
    await updateIncident(tx, id, { status: "closed" });
    await auditIncident(tx, {
      actorId: actor.id,
      actorRoles: actor.roles,
      ip: actor.ip,
      action: "privacy_incident.close",
      details: { incidentId: id },
    });
  });
}

export interface NoticePreview {
  subject: string;
  text: string;
  /** Addresses that will get the notice. */
  recipients: string[];
  /** Addresses already told about this incident (skipped). */
  alreadyNotified: string[];
  /** What was not an e-mail address. */
  invalid: string[];
}

function readNotice(form: Record<string, string>, send: boolean) {
  const parsed = (send ? incidentNoticeSendSchema : incidentNoticeSchema).safeParse(form);
  if (!parsed.success) throw validation(parsed.error);
  const { emails, invalid } = parseAffectedContacts(parsed.data.recipients);
  if (emails.length === 0)
    throw new AppError("VALIDATION", "No encontramos ningún correo válido en la lista.");
  if (emails.length > MAX_NOTICE_RECIPIENTS)
    throw new AppError(
      "VALIDATION",
      `Un envío puede llegar a ${MAX_NOTICE_RECIPIENTS.toLocaleString("es-CL")} personas como máximo; divide la lista.`,
    );
  return { text: parsed.data.noticeText, emails, invalid };
}

/** The preview the admin reviews before sending: the e-mail as it will go out and who gets it. Changes nothing. */
export async function previewIncidentNotice(
  db: Database,
  actor: PrivacyActor,
  id: string,
  form: Record<string, string>,
): Promise<NoticePreview> {
  assertAdmin(actor);
  const row = await requireIncident(db, id);
  if (row.status === "closed") throw new AppError("CONFLICT", "El incidente está cerrado.");
  const { text, emails, invalid } = readNotice(form, false);
  const told = await notifiedEmails(db, id);
  return {
    subject: incidentNoticeSubject(clinicFacts().shortName),
    text,
    recipients: emails.filter((email) => !told.has(email)),
    alreadyNotified: emails.filter((email) => told.has(email)),
    invalid,
  };
}

/** The outbox key of one person's notice: the address hashed, so the key (kept after the payload) names nobody. */
function noticeKey(incidentId: string, email: string) {
  return `privacy-incident:${incidentId}:${createHash("sha256").update(email).digest("hex").slice(0, 32)}`;
}

/**
 * Sends the reviewed notice: one outbox e-mail per address not told yet, and its `privacy_incident_notices` row,
 * in one transaction under the incident's row lock (two admins sending at once queue each person once); the
 * outbox key is the second guard. Records the text, who approved it and when the people were told. Answers how
 * many were queued now and how many had been told before.
 */
export async function sendIncidentNotice(
  db: Database,
  actor: PrivacyActor,
  id: string,
  form: Record<string, string>,
  now = new Date(),
): Promise<{ queued: number; skipped: number }> {
  assertAdmin(actor);
  const { text, emails } = readNotice(form, true);
  const clinic = clinicFacts();
  const content = incidentNoticeEmail(clinic, incidentNoticeSubject(clinic.shortName), text);
  const result = await db.transaction(async (tx) => {
    const row = await requireIncident(tx, id, true);
    if (row.status === "closed") throw new AppError("CONFLICT", "El incidente está cerrado.");
    const told = await notifiedEmails(tx, id);
    const pending = emails.filter((email) => !told.has(email));
    const accounts = await accountsByEmail(tx, pending);
    let queued = 0;
    for (const email of pending) {
      const outboxId = await enqueue(tx, {
        kind: "email",
        idempotencyKey: noticeKey(id, email),
        payload: { to: email, ...content },
      });
      if (!outboxId) continue;
      await insertNotice(tx, { incidentId: id, userId: accounts.get(email) ?? null, email, outboxId });
      queued += 1;
    }
    await updateIncident(tx, id, {
      notificationText: text,
      notificationApprovedBy: actor.id,
      ...(queued > 0 && !row.peopleNotifiedAt ? { peopleNotifiedAt: now } : {}),
    });
    await auditIncident(tx, {
      actorId: actor.id,
      actorRoles: actor.roles,
      ip: actor.ip,
      action: "privacy_incident.notify",
      // Counts only: the addresses are in the notices table, not copied into the audit log.
      details: { incidentId: id, queued, skipped: emails.length - queued, channel: "email" },
    });
    return { queued, skipped: emails.length - queued };
  });
  if (result.queued > 0) kickOutboxWorker();
  return result;
}

/** The register as CSV for the Agency (all incidents), audited. */
export async function incidentRegisterExport(
  db: Database,
  actor: PrivacyActor,
  now = new Date(),
): Promise<{ filename: string; body: string }> {
  assertAdmin(actor);
  const rows = await listIncidentRows(db);
  const body = incidentRegisterCsv(
    rows.map((row) => ({
      id: row.id,
      title: row.title,
      description: row.description,
      occurred: tableDate(row.occurredAt),
      discovered: tableDate(row.discoveredAt),
      dataCategories: row.dataCategories,
      sensitiveData: row.sensitiveData,
      peopleAffected: row.peopleAffected,
      affectedDescription: row.affectedDescription,
      measures: row.measures,
      agencyNotified: tableDate(row.agencyNotifiedAt),
      peopleNotified: tableDate(row.peopleNotifiedAt),
      noticesSent: row.notices,
      status: incidentStatusLabels[row.status === "closed" ? "closed" : "open"],
      recorded: tableDate(row.createdAt),
    })),
  );
  await auditIncident(db, {
    actorId: actor.id,
    actorRoles: actor.roles,
    ip: actor.ip,
    action: "privacy_incident.export",
    details: { incidents: rows.length },
  });
  return { filename: `registro-incidentes-${clinicDate(now)}.csv`, body };
}
