import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { hasPassword } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import {
  RECORD_CODE_MAX_ATTEMPTS,
  RECORD_CODE_MESSAGES,
  RECORD_CODE_SENT_MESSAGE,
  RECORD_CODE_TTL_MS,
  recordCodeChannel,
  recordCodeVerdict,
} from "~/domain/record-code";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import type { DentalinkPatient } from "~/integrations/dentalink/dentalink-mapping";
import { env } from "~/lib/base/env.server";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import { dentalinkReader } from "./dentalink-reader.server";
import { assertVerified, patientEntry, type ReadContext, type RecordReader } from "./record-actor.server";
import {
  queueBindingConflictNotice,
  queueCodeRequestsAlert,
  queueRecordCode,
} from "./record-notifications.server";
import { CODE_REQUESTS_ALERT_AT, chargeCodeRequest, chargeVerify, HOUR } from "./record-rate-limits.server";
import {
  closeBinding,
  codeRequesters,
  consumeCode,
  countAttempt,
  findBinding,
  findBindingOfPatient,
  findOpenCode,
  insertBinding,
  insertCode,
  recordAccess,
  reopenBinding,
} from "./record-repository.server";
import { upstreamMessage } from "./record-upstream-error.server";

/**
 * The RUT portal's binding (ADR 021, DESIGN decision 11): an account is bound once to a Dentalink patient by a
 * one-time code sent to the contact the clinic has on file; a RUT alone opens nothing. 'Cerrar Sesión' closes the
 * bound record until the account's password or a new code reopens it (ADR 029). Reading the record is
 * `record-reading.server.ts`, its files `record-files.server.ts`, the register `record-register.server.ts`.
 */

export const BOUND_ELSEWHERE_MESSAGE =
  "Tu cuenta ya está vinculada a otra ficha clínica. Si necesitas cambiarla, contacta a la clínica.";
export const PATIENT_TAKEN_MESSAGE =
  "Esta ficha clínica ya está vinculada a otra cuenta. Avisamos a la clínica para que te contacte.";

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
    // The patient's access list shows every account their record was bound to (ADR 029).
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
 * 'Cerrar Sesión' (ADR 029): closes the record on the server, for the account. Reopening takes the
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
