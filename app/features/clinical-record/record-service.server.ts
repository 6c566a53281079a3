import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { hasPassword } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import { formatCLP, formatClinicDateTime, formatDate } from "~/domain/format";
import { appointmentBadgeStatus, badgeTone, progressPercent } from "~/domain/record-badges";
import {
  RECORD_CODE_MAX_ATTEMPTS,
  RECORD_CODE_MESSAGES,
  RECORD_CODE_SENT_MESSAGE,
  RECORD_CODE_TTL_MS,
  recordCodeChannel,
  recordCodeVerdict,
} from "~/domain/record-code";
import { CLINICAL_READER_ROLES } from "~/domain/roles";
import { formatRut } from "~/domain/rut";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import type { DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import type {
  DentalinkAppointment,
  DentalinkDocument,
  DentalinkPatient,
  DentalinkPayment,
  DentalinkTreatment,
} from "~/integrations/dentalink/dentalink-mapping";
import { dentalinkErrorMessage } from "~/integrations/dentalink/dentalink-schemas";
import { isIntegrationError } from "~/integrations/http.server";
import { env } from "~/lib/env.server";
import { AppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { consumeAll, consumeRate, type RateRule } from "~/lib/rate-limit.server";
import { dentalinkReader } from "./dentalink-reader.server";
import {
  queueBindingConflictNotice,
  queueCodeRequestsAlert,
  queueRecordCode,
} from "./record-notifications.server";
import {
  accessesOfPatient,
  closeBinding,
  codeRequesters,
  consumeCode,
  countAttempt,
  findBinding,
  findBindingOfPatient,
  findOpenCode,
  insertBinding,
  insertCode,
  latestAccesses,
  latestStaffLookup,
  recordAccess,
  reopenBinding,
  type AccessRow,
  type NewAccessRow,
} from "./record-repository.server";
import type {
  ClinicalRecordDto,
  RecordAccessItem,
  RecordAppointment,
  RecordFile,
  RecordList,
  RecordPayment,
  RecordTreatment,
} from "./record-schema";

/**
 * The RUT portal (issue 11, DESIGN decision 11): an account is bound once to a Dentalink patient by a one-time
 * code sent to the contact the clinic has on file; a RUT alone opens nothing. Every read of a record — the patient
 * lookup, each list, each file — writes a row of the append-only access register in the same request, before the
 * data leaves the server. Staff (dentista, admin) open any record by RUT with a recorded reason.
 */

/** Who reads, as the register records them. */
export interface RecordReader {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  roles: readonly string[];
}

export interface ReadContext {
  ip: string;
  /** The client's rate-limit address (IPv6 as its /64). */
  rateIp: string;
  now?: Date;
}

export const RECORD_ERROR_FALLBACK = "Error al obtener datos del paciente";
export const UNVERIFIED_MESSAGE =
  "Confirma tu correo electrónico antes de abrir tu ficha clínica. Te enviamos un enlace al registrarte; puedes pedir otro desde tu panel.";
export const BOUND_ELSEWHERE_MESSAGE =
  "Tu cuenta ya está vinculada a otra ficha clínica. Si necesitas cambiarla, contacta a la clínica.";
export const PATIENT_TAKEN_MESSAGE =
  "Esta ficha clínica ya está vinculada a otra cuenta. Avisamos a la clínica para que te contacte.";
export const STAFF_NOT_FOUND_MESSAGE = "No encontramos un paciente con ese RUT en Dentalink.";

/** A staff member's reasoned lookup lets them open that patient's files for this long. */
export const STAFF_FILE_GRANT_MS = 30 * 60_000;

const HOUR = 60 * 60;
/**
 * A RUT's code budget is each account's own (issue 19 item 5): one account spending it on someone else's RUT
 * leaves the owner's account its full budget. The per-RUT ceiling only bounds how many codes one phone can be sent
 * (it takes ten accounts at their limit to reach it); the clinic is told when a RUT gets `codeRutAlertAt` requests.
 */
export const recordRateRules = {
  codeIp: { window: HOUR, max: 30 },
  codeAccount: { window: HOUR, max: 5 },
  codeAccountRut: { window: HOUR, max: 3 },
  codeRut: { window: HOUR, max: 30 },
  verifyIp: { window: 10 * 60, max: 60 },
  verifyAccount: { window: 10 * 60, max: 15 },
  staffLookup: { window: HOUR, max: 60 },
} satisfies Record<string, RateRule>;

export const CODE_REQUESTS_ALERT_AT = 10;

function retryText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? "1 minuto" : `${minutes} minutos`;
}

function refuse(decision: { retryAfter: number | null }): never {
  const wait = decision.retryAfter ?? HOUR;
  throw new AppError("RATE_LIMITED", `Demasiados intentos. Intenta nuevamente en ${retryText(wait)}.`, wait);
}

async function charge(db: Database, checks: Array<{ key: string; rule: RateRule }>, now: Date) {
  const decision = await consumeAll(db, checks, now);
  if (!decision.allowed) refuse(decision);
}

/**
 * A code request's limits, the same whatever the RUT: per address, per account, per account and RUT, then the
 * RUT's ceiling, counted only for a request the others let through. Answers whether this request is the one that
 * makes the RUT hammered (the clinic is told once per window).
 */
async function chargeCodeRequest(
  db: Database,
  reader: RecordReader,
  rut: string,
  context: ReadContext,
  now: Date,
) {
  await charge(
    db,
    [
      { key: `record-code:ip:${context.rateIp}`, rule: recordRateRules.codeIp },
      { key: `record-code:account:${reader.id}`, rule: recordRateRules.codeAccount },
      { key: `record-code:account-rut:${reader.id}:${rut}`, rule: recordRateRules.codeAccountRut },
    ],
    now,
  );
  const ceiling = await consumeRate(db, `record-code:rut:${rut}`, recordRateRules.codeRut, now);
  if (!ceiling.allowed) refuse(ceiling);
  return ceiling.count === CODE_REQUESTS_ALERT_AT;
}

// ---- Codes ------------------------------------------------------------------------------------------------------

// A pepper kept out of the database: a leaked table of 6-digit code hashes must not be brute-forced offline.
const fallbackPepper = randomBytes(32);

function hashCode(userId: string, rut: string, code: string): string {
  const pepper = env().AUTH_SECRET ?? fallbackPepper;
  return createHmac("sha256", pepper).update(`clinical-record:${userId}:${rut}:${code}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

function fullName(reader: Pick<RecordReader, "firstName" | "lastName">): string {
  return `${reader.firstName} ${reader.lastName}`.trim();
}

function patientEntry(
  reader: RecordReader,
  context: ReadContext,
  entry: Pick<NewAccessRow, "rut" | "dentalinkPatientId" | "resource" | "resourceId" | "outcome">,
): NewAccessRow {
  return {
    actorId: reader.id,
    actorName: fullName(reader) || reader.email,
    actorRole: "paciente",
    reason: null,
    ip: context.ip,
    ...entry,
  };
}

function assertVerified(reader: RecordReader) {
  if (!reader.emailVerified) throw new AppError("FORBIDDEN", UNVERIFIED_MESSAGE);
}

export type RutStep = { view: "code"; message: string } | { view: "record" };

/**
 * The RUT view's submit. An account already bound: its own RUT opens the record while it is open, and asks for a
 * new code once it was closed; another RUT is refused before any lookup (so nothing is learnt about it).
 * Otherwise the same work whatever the RUT: rate limits, the lookup in Dentalink (audited), a code row, and the
 * same answer; only a patient with a contact on file is sent the code (WhatsApp to a mobile, else e-mail).
 */
export async function requestRecordCode(
  db: Database,
  reader: RecordReader,
  rut: string,
  context: ReadContext,
): Promise<RutStep> {
  assertVerified(reader);
  const binding = await findBinding(db, reader.id);
  if (binding) {
    if (binding.rut !== rut) throw new AppError("CONFLICT", BOUND_ELSEWHERE_MESSAGE);
    if (binding.closedAt === null) return { view: "record" };
  }
  return sendRecordCode(db, reader, rut, context);
}

/** 'Enviarme un código' on a closed record: a new code to the contact the clinic has on file for it. */
export async function requestReopenCode(
  db: Database,
  reader: RecordReader,
  context: ReadContext,
): Promise<RutStep> {
  assertVerified(reader);
  const binding = await findBinding(db, reader.id);
  if (!binding) throw new AppError("VALIDATION", RECORD_CODE_MESSAGES.missing);
  if (binding.closedAt === null) return { view: "record" };
  return sendRecordCode(db, reader, binding.rut, context);
}

async function sendRecordCode(
  db: Database,
  reader: RecordReader,
  rut: string,
  context: ReadContext,
): Promise<RutStep> {
  const now = context.now ?? new Date();
  const hammered = await chargeCodeRequest(db, reader, rut, context, now);
  const { client } = dentalinkReader();
  let patient: DentalinkPatient | null;
  try {
    [patient = null] = await client.findPatients({ rut });
  } catch (error) {
    await recordAccess(db, [
      patientEntry(reader, context, {
        rut,
        dentalinkPatientId: null,
        resource: "codigo",
        resourceId: null,
        outcome: "error",
      }),
    ]);
    logger.warn({ err: error }, "clinical record: patient lookup failed");
    throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const channel = patient ? recordCodeChannel({ mobile: patient.phone, email: patient.email }) : null;
  await db.transaction(async (tx) => {
    await recordAccess(tx, [
      patientEntry(reader, context, {
        rut,
        dentalinkPatientId: patient?.id ?? null,
        resource: "codigo",
        resourceId: null,
        outcome: patient ? "ok" : "not_found",
      }),
    ]);
    await insertCode(
      tx,
      {
        userId: reader.id,
        rut,
        dentalinkPatientId: patient?.id ?? null,
        codeHash: hashCode(reader.id, rut, code),
        expiresAt: new Date(now.getTime() + RECORD_CODE_TTL_MS),
      },
      now,
    );
    if (patient && channel) {
      await queueRecordCode(tx, {
        channel,
        phone: patient.phone,
        email: patient.email,
        code,
        userId: reader.id,
      });
    }
    if (hammered) {
      const accounts = await codeRequesters(tx, { rut, since: new Date(now.getTime() - HOUR * 1000) });
      await queueCodeRequestsAlert(tx, { rut, requests: CODE_REQUESTS_ALERT_AT, accounts, at: now });
    }
  });
  if (channel || hammered) kickOutboxWorker();
  return { view: "code", message: RECORD_CODE_SENT_MESSAGE };
}

/** Code and password attempts share one budget per address and per account. */
function chargeVerify(db: Database, reader: RecordReader, context: ReadContext, now: Date) {
  return charge(
    db,
    [
      { key: `record-verify:ip:${context.rateIp}`, rule: recordRateRules.verifyIp },
      { key: `record-verify:account:${reader.id}`, rule: recordRateRules.verifyAccount },
    ],
    now,
  );
}

/**
 * The code view's submit: the right code binds the account to the patient (one account per patient), or reopens
 * the account's closed record (only a code for that record's patient).
 */
export async function verifyRecordCode(
  db: Database,
  reader: RecordReader,
  code: string,
  context: ReadContext,
): Promise<{ view: "record" }> {
  assertVerified(reader);
  const now = context.now ?? new Date();
  const binding = await findBinding(db, reader.id);
  if (binding && binding.closedAt === null) return { view: "record" };
  await chargeVerify(db, reader, context, now);
  const open = await findOpenCode(db, reader.id);
  if (!open) throw new AppError("VALIDATION", RECORD_CODE_MESSAGES.missing);
  const verdict = recordCodeVerdict(open, now);
  if (verdict === "expired") throw new AppError("VALIDATION", RECORD_CODE_MESSAGES.expired);
  if (verdict !== "usable") throw new AppError("VALIDATION", RECORD_CODE_MESSAGES.exhausted);
  const attempts = await countAttempt(db, open.id);
  if (attempts > RECORD_CODE_MAX_ATTEMPTS) throw new AppError("VALIDATION", RECORD_CODE_MESSAGES.exhausted);
  const right = sameHash(open.codeHash, hashCode(reader.id, open.rut, code));
  if (!right || open.dentalinkPatientId === null) {
    const left = RECORD_CODE_MAX_ATTEMPTS - attempts;
    throw new AppError(
      "VALIDATION",
      left > 0
        ? `${RECORD_CODE_MESSAGES.wrong} Te quedan ${left} ${left === 1 ? "intento" : "intentos"}.`
        : RECORD_CODE_MESSAGES.exhausted,
    );
  }
  const patientId = open.dentalinkPatientId;
  if (binding) {
    if (patientId !== binding.dentalinkPatientId)
      throw new AppError("VALIDATION", RECORD_CODE_MESSAGES.wrong);
    await db.transaction(async (tx) => {
      await consumeCode(tx, open.id, now);
      await reopenBinding(tx, reader.id);
    });
    return { view: "record" };
  }
  const bound = await db.transaction(async (tx) => {
    await consumeCode(tx, open.id, now);
    const taken = await findBindingOfPatient(tx, patientId);
    if (taken && taken.userId !== reader.id) {
      await queueBindingConflictNotice(tx, { rut: open.rut, userEmail: reader.email, at: now });
      return false;
    }
    const inserted = await insertBinding(tx, {
      userId: reader.id,
      dentalinkPatientId: patientId,
      rut: open.rut,
    });
    // The patient's access list shows every account their record was bound to (issue 19 item 1).
    if (inserted) {
      await recordAccess(tx, [
        patientEntry(reader, context, {
          rut: open.rut,
          dentalinkPatientId: patientId,
          resource: "vinculacion",
          resourceId: null,
          outcome: "ok",
        }),
      ]);
    }
    return inserted;
  });
  if (!bound) {
    kickOutboxWorker();
    throw new AppError("CONFLICT", PATIENT_TAKEN_MESSAGE);
  }
  return { view: "record" };
}

/**
 * Whether the code view is the account's current step: a code that may still be tried, and no open record (not
 * bound yet, or bound and closed).
 */
export async function hasOpenCode(db: Database, reader: RecordReader, now = new Date()): Promise<boolean> {
  const binding = await findBinding(db, reader.id);
  if (binding && binding.closedAt === null) return false;
  const open = await findOpenCode(db, reader.id);
  return open !== undefined && recordCodeVerdict(open, now) === "usable";
}

/**
 * The closed view when the account's record was closed with 'Cerrar Sesión' and not reopened since (null
 * otherwise): the password form only for an account that has a password.
 */
export async function closedRecordView(
  db: Database,
  reader: RecordReader,
): Promise<{ view: "closed"; password: boolean } | null> {
  const binding = await findBinding(db, reader.id);
  if (!binding || binding.closedAt === null) return null;
  return { view: "closed", password: await hasPassword(db, reader.id) };
}

/**
 * 'Cerrar Sesión' (issue 19 item 14): closes the record on the server, for the account. Reopening takes the
 * account's password (`reopenWithPassword`) or a new code (`requestReopenCode`); the RUT alone opens nothing.
 */
export async function closeRecord(db: Database, reader: RecordReader, now = new Date()): Promise<void> {
  await closeBinding(db, reader.id, now);
}

export const WRONG_PASSWORD_MESSAGE = "La contraseña no es correcta.";

/**
 * Reopens the account's closed record when `passwordMatches` confirms the account's password (Better Auth checks
 * it); attempts count against the code attempts' budget.
 */
export async function reopenWithPassword(
  db: Database,
  reader: RecordReader,
  passwordMatches: () => Promise<boolean>,
  context: ReadContext,
): Promise<{ view: "record" }> {
  assertVerified(reader);
  const binding = await findBinding(db, reader.id);
  if (!binding) throw new AppError("VALIDATION", RECORD_CODE_MESSAGES.missing);
  if (binding.closedAt === null) return { view: "record" };
  await chargeVerify(db, reader, context, context.now ?? new Date());
  if (!(await passwordMatches())) throw new AppError("VALIDATION", WRONG_PASSWORD_MESSAGE);
  await reopenBinding(db, reader.id);
  return { view: "record" };
}

/** 'Ingresar otro RUT': the open code is given up (the next RUT gets a new one). */
export async function withdrawRecordCode(
  db: Database,
  reader: RecordReader,
  now = new Date(),
): Promise<void> {
  const open = await findOpenCode(db, reader.id);
  if (open) await consumeCode(db, open.id, now);
}

// ---- Reading a record --------------------------------------------------------------------------------------------

/** spec 001 §8: 'Error {status}: {body or status text}', else 'Error al obtener datos del paciente'. */
export function upstreamMessage(error: unknown): string {
  if (isIntegrationError(error) && error.status !== null && error.status !== 200) {
    const detail = dentalinkErrorMessage(error.body) ?? statusText(error.status);
    return `Error ${error.status}: ${detail}`;
  }
  return RECORD_ERROR_FALLBACK;
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
  };
  return texts[status] ?? "Error";
}

const dateOrDash = (value: string | null) => (value ? formatDate(value) : "—");

function appointmentItem(item: DentalinkAppointment): RecordAppointment {
  return {
    id: item.id,
    date: formatDate(item.date),
    time: item.time,
    treatment: item.treatment ?? "Consulta",
    doctor: item.dentist ?? "—",
    office: item.office,
    status: {
      label: item.status ?? "Sin estado",
      tone: badgeTone(appointmentBadgeStatus(item.statusKind)),
    },
  };
}

function paymentItem(item: DentalinkPayment): RecordPayment {
  return {
    id: item.id,
    date: dateOrDash(item.date),
    amount: formatCLP(item.amountClp),
    concept: item.concept ?? "—",
    method: item.method ?? "—",
    status: { label: item.status ?? "Sin estado", tone: badgeTone(item.status) },
  };
}

function treatmentItem(item: DentalinkTreatment): RecordTreatment {
  return {
    id: item.id,
    name: item.name,
    description: item.description ?? "",
    startDate: dateOrDash(item.startDate),
    endDate: item.endDate ? formatDate(item.endDate) : null,
    progress: progressPercent(item.progress),
    status: { label: item.status ?? "Sin estado", tone: badgeTone(item.status) },
  };
}

function fileItem(item: DentalinkDocument, href: (id: string) => string): RecordFile {
  return {
    id: item.id,
    name: item.name,
    type: item.type ?? "—",
    date: dateOrDash(item.date),
    href: href(item.id),
  };
}

type Settled<T> = PromiseSettledResult<T>;

function listOf<From, To>(result: Settled<From[]>, map: (item: From) => To): RecordList<To> {
  if (result.status === "rejected") return { ok: false, message: upstreamMessage(result.reason) };
  return { ok: true, items: result.value.map(map) };
}

const outcome = (result: Settled<unknown>) => (result.status === "fulfilled" ? "ok" : "error");

/**
 * The patient lookup first, then the four lists in parallel (spec 001 §7); one register row per read, written
 * before anything is returned. A failed list is its own error; a failed lookup fails the whole record.
 */
async function readRecord(
  db: Database,
  client: DentalinkClient,
  target: { rut: string; patient?: DentalinkPatient; patientId: string },
  entry: (row: Pick<NewAccessRow, "resource" | "outcome" | "resourceId">) => NewAccessRow,
  fileHref: (id: string) => string,
): Promise<ClinicalRecordDto> {
  let patient = target.patient;
  if (!patient) {
    try {
      patient = await client.getPatient(target.patientId);
    } catch (error) {
      await recordAccess(db, [entry({ resource: "paciente", outcome: "error", resourceId: null })]);
      throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
    }
  }
  const patientId = patient.id;
  const [appointments, payments, treatments, files] = await Promise.allSettled([
    client.listAppointments(patientId),
    client.listPayments(patientId),
    client.listTreatments(patientId),
    client.listPatientFiles(patientId),
  ]);
  await recordAccess(db, [
    ...(target.patient ? [] : [entry({ resource: "paciente", outcome: "ok", resourceId: null })]),
    entry({ resource: "citas", outcome: outcome(appointments), resourceId: null }),
    entry({ resource: "pagos", outcome: outcome(payments), resourceId: null }),
    entry({ resource: "tratamientos", outcome: outcome(treatments), resourceId: null }),
    entry({ resource: "documentos", outcome: outcome(files), resourceId: null }),
    entry({ resource: "radiografias", outcome: outcome(files), resourceId: null }),
  ]);
  const documents: Settled<DentalinkDocument[]> =
    files.status === "fulfilled" ? { status: "fulfilled", value: files.value.documents } : files;
  const xrays: Settled<DentalinkDocument[]> =
    files.status === "fulfilled" ? { status: "fulfilled", value: files.value.xrays } : files;
  return {
    patient: {
      name: patient.name,
      rut: formatRut(patient.rut ?? target.rut),
      email: patient.email,
      phone: patient.phone,
    },
    appointments: listOf(appointments, appointmentItem),
    payments: listOf(payments, paymentItem),
    treatments: listOf(treatments, treatmentItem),
    documents: listOf(documents, (item) => fileItem(item, fileHref)),
    xrays: listOf(xrays, (item) => fileItem(item, fileHref)),
  };
}

export const PATIENT_FILE_PATH = "/paciente/ficha/archivo";
export const STAFF_FILE_PATH = "/dentista/ficha/archivo";

/** The bound record of this account, or null when the account is not bound. */
export async function patientRecord(
  db: Database,
  reader: RecordReader,
  context: ReadContext,
): Promise<ClinicalRecordDto | null> {
  assertVerified(reader);
  const binding = await findBinding(db, reader.id);
  if (!binding || binding.closedAt !== null) return null;
  const { client } = dentalinkReader();
  return readRecord(
    db,
    client,
    { rut: binding.rut, patientId: binding.dentalinkPatientId },
    (row) =>
      patientEntry(reader, context, {
        ...row,
        rut: binding.rut,
        dentalinkPatientId: binding.dentalinkPatientId,
      }),
    (id) => `${PATIENT_FILE_PATH}/${encodeURIComponent(id)}`,
  );
}

const roleLabels: Record<string, string> = {
  paciente: "Paciente",
  dentista: "Dentista",
  admin: "Administración",
  super_admin: "Administración",
};

/** What the patient's access list says each kind of row did. */
const openingLabels = {
  vinculacion: "Vinculó tu RUT a su cuenta",
  paciente: "Abrió tu ficha",
  archivo: "Abrió un archivo",
} as const;

const openingResources = Object.keys(openingLabels) as Array<keyof typeof openingLabels>;

function accessItem(row: AccessRow): RecordAccessItem {
  return {
    id: row.id,
    who: row.actorName,
    role: roleLabels[row.actorRole] ?? row.actorRole,
    what: openingLabels[row.resource as keyof typeof openingLabels] ?? row.resource,
    when: formatClinicDateTime(row.createdAt),
    reason: row.reason,
  };
}

/**
 * Who else bound or opened this account's record, and when (names, never addresses): every binding to an account,
 * every opening and every file read by staff or by another patient account (issue 19 item 1). Another account's
 * code request is not listed: it opened nothing (the code went to the patient).
 */
export async function recordOpenings(db: Database, reader: RecordReader): Promise<RecordAccessItem[]> {
  const binding = await findBinding(db, reader.id);
  if (!binding) return [];
  const rows = await accessesOfPatient(db, {
    rut: binding.rut,
    excludeActorId: reader.id,
    resources: openingResources,
    outcome: "ok",
    limit: 50,
  });
  return rows.map(accessItem);
}

function staffRole(reader: RecordReader): string {
  const role = CLINICAL_READER_ROLES.find((name) => reader.roles.includes(name));
  if (!role) throw new AppError("FORBIDDEN", "No tienes permiso para ver fichas clínicas.");
  return role === "super_admin" ? "admin" : role;
}

/** A dentist's or admin's lookup of any RUT, with the reason recorded on every read. */
export async function staffRecord(
  db: Database,
  reader: RecordReader,
  input: { rut: string; reason: string },
  context: ReadContext,
): Promise<ClinicalRecordDto> {
  const role = staffRole(reader);
  const now = context.now ?? new Date();
  await charge(db, [{ key: `record-staff:account:${reader.id}`, rule: recordRateRules.staffLookup }], now);
  const entry = (
    row: Pick<NewAccessRow, "resource" | "outcome" | "resourceId">,
    dentalinkPatientId: string | null,
  ): NewAccessRow => ({
    actorId: reader.id,
    actorName: fullName(reader) || reader.email,
    actorRole: role,
    rut: input.rut,
    dentalinkPatientId,
    reason: input.reason,
    ip: context.ip,
    ...row,
  });
  const { client } = dentalinkReader();
  let patient: DentalinkPatient | undefined;
  try {
    [patient] = await client.findPatients({ rut: input.rut });
  } catch (error) {
    await recordAccess(db, [entry({ resource: "paciente", outcome: "error", resourceId: null }, null)]);
    throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
  }
  await recordAccess(db, [
    entry(
      { resource: "paciente", outcome: patient ? "ok" : "not_found", resourceId: null },
      patient?.id ?? null,
    ),
  ]);
  if (!patient) throw new AppError("NOT_FOUND", STAFF_NOT_FOUND_MESSAGE);
  const found = patient;
  return readRecord(
    db,
    client,
    { rut: input.rut, patient: found, patientId: found.id },
    (row) => entry(row, found.id),
    (id) => `${STAFF_FILE_PATH}/${encodeURIComponent(id)}?rut=${encodeURIComponent(input.rut)}`,
  );
}

// ---- Files ---------------------------------------------------------------------------------------------------------

export interface RecordFileDownload {
  name: string;
  contentType: string;
  body: ReadableStream<Uint8Array> | Uint8Array;
  size: number | null;
}

const FILE_NOT_FOUND = "No encontramos ese archivo.";

async function downloadOwnFile(
  db: Database,
  target: { patientId: string },
  fileId: string,
  entry: (row: Pick<NewAccessRow, "resource" | "outcome" | "resourceId">) => NewAccessRow,
): Promise<RecordFileDownload> {
  const { client, files } = dentalinkReader();
  let list: { documents: DentalinkDocument[]; xrays: DentalinkDocument[] };
  try {
    list = await client.listPatientFiles(target.patientId);
  } catch (error) {
    await recordAccess(db, [entry({ resource: "archivo", outcome: "error", resourceId: fileId })]);
    throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
  }
  // Only a file of this patient's own list: an id from the URL never reaches another patient's file.
  const file = [...list.documents, ...list.xrays].find((item) => item.id === fileId);
  if (!file?.url) {
    await recordAccess(db, [entry({ resource: "archivo", outcome: "not_found", resourceId: fileId })]);
    throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  }
  try {
    const body = await files.fetchFile(file.url);
    await recordAccess(db, [entry({ resource: "archivo", outcome: "ok", resourceId: fileId })]);
    return { name: file.name, ...body };
  } catch (error) {
    await recordAccess(db, [entry({ resource: "archivo", outcome: "error", resourceId: fileId })]);
    if (isIntegrationError(error) && error.status === 404) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
    throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
  }
}

/** A file of the account's bound patient; NOT_FOUND without a binding or for anyone else's file. */
export async function patientFile(
  db: Database,
  reader: RecordReader,
  fileId: string,
  context: ReadContext,
): Promise<RecordFileDownload> {
  const binding = reader.emailVerified ? await findBinding(db, reader.id) : undefined;
  if (!binding || binding.closedAt !== null) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  return downloadOwnFile(db, { patientId: binding.dentalinkPatientId }, fileId, (row) =>
    patientEntry(reader, context, {
      ...row,
      rut: binding.rut,
      dentalinkPatientId: binding.dentalinkPatientId,
    }),
  );
}

/**
 * A file for staff: only of a RUT they looked up with a reason in the last 30 minutes (their register row is the
 * grant, and its reason is recorded again with the file read).
 */
export async function staffFile(
  db: Database,
  reader: RecordReader,
  input: { rut: string; fileId: string },
  context: ReadContext,
): Promise<RecordFileDownload> {
  const role = staffRole(reader);
  const now = context.now ?? new Date();
  const grant = await latestStaffLookup(db, {
    actorId: reader.id,
    rut: input.rut,
    since: new Date(now.getTime() - STAFF_FILE_GRANT_MS),
  });
  if (!grant?.dentalinkPatientId || !grant.reason) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  const patientId = grant.dentalinkPatientId;
  const reason = grant.reason;
  return downloadOwnFile(db, { patientId }, input.fileId, (row) => ({
    actorId: reader.id,
    actorName: fullName(reader) || reader.email,
    actorRole: role,
    rut: input.rut,
    dentalinkPatientId: patientId,
    reason,
    ip: context.ip,
    ...row,
  }));
}

// ---- The register for /admin/auditoria -------------------------------------------------------------------------------

export interface RegisterEntryDto {
  id: string;
  when: string;
  who: string;
  role: string;
  rut: string;
  resource: string;
  resourceId: string | null;
  reason: string | null;
  outcome: string;
  ip: string;
}

const resourceLabels: Record<string, string> = {
  codigo: "Búsqueda para enviar un código",
  vinculacion: "Vinculación de una cuenta",
  paciente: "Búsqueda del paciente",
  citas: "Citas",
  pagos: "Pagos",
  tratamientos: "Tratamientos",
  documentos: "Documentos",
  radiografias: "Radiografías",
  archivo: "Archivo",
};

const outcomeLabels: Record<string, string> = {
  ok: "Leído",
  not_found: "No encontrado",
  error: "Error de Dentalink",
};

export const REGISTER_PAGE_SIZE = 100;

/** The register's newest rows, of one patient (RUT) when given; admins only (the route checks the role too). */
export async function accessRegister(
  db: Database,
  reader: RecordReader,
  options: { rut?: string },
): Promise<RegisterEntryDto[]> {
  if (!reader.roles.some((role) => role === "admin" || role === "super_admin")) {
    throw new AppError("FORBIDDEN", "No tienes permiso para ver el registro de accesos.");
  }
  const rows = await latestAccesses(db, { rut: options.rut, limit: REGISTER_PAGE_SIZE });
  return rows.map((row) => ({
    id: row.id,
    when: formatClinicDateTime(row.createdAt),
    who: row.actorName,
    role: roleLabels[row.actorRole] ?? row.actorRole,
    rut: formatRut(row.rut),
    resource: resourceLabels[row.resource] ?? row.resource,
    resourceId: row.resourceId,
    reason: row.reason,
    outcome: outcomeLabels[row.outcome] ?? row.outcome,
    ip: row.ip,
  }));
}
