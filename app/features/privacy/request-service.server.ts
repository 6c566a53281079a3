import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Database } from "~/db/client.server";
import { clinicDate } from "~/domain/clinic-time";
import type { PrivacyRight } from "~/domain/privacy";
import { answerDueAt, dueDate } from "~/domain/privacy-clock";
import { blockingMayBeAsked } from "~/domain/privacy-requests";
import {
  PRIVACY_CODE_TTL_MS,
  PRIVACY_LINK_LIFETIME,
  PRIVACY_LINK_TTL_MS,
  PRIVACY_VERIFICATION_MESSAGES,
  privacyCodeVerdict,
} from "~/domain/privacy-verification";
import { addRestriction } from "~/features/consent/restrictions.server";
import { dataSubject } from "~/features/consent/subject";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import { clinicFacts, env, publicBaseUrl } from "~/lib/base/env.server";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import { chargePublicWrite, type PublicWriter } from "~/lib/public-write-limit.server";
import { consumeAll, consumeRate, type RateRule } from "~/lib/rate-limit.server";
import { acknowledgmentMessage, requestReference, verificationLinkMessage } from "./request-messages";
import {
  queuePersonMessage,
  queueVerificationCode,
  queueVerificationLink,
  type Recipient,
} from "./request-notifications.server";
import {
  accountOfContact,
  addEvent,
  audit,
  consumeVerification,
  countAttempt,
  insertRequest,
  insertVerification,
  lockLatestCode,
  lockLinkVerification,
  lockRequest,
  requestBySubmission,
  updateRequest,
  userContact,
  type PrivacyRequestRow,
} from "./request-repository.server";
import type { AccountRequestInput, PublicRequestInput } from "./request-schemas";

/**
 * Creating a rights request and proving who asks (Ley 21.719 art. 11; ADR 037). An account holder is proven by the
 * session and the request is received at once; the public entry stores an `unverified` request and sends a
 * single-use link (e-mail) or code (WhatsApp): nothing is looked up or processed until it is used, so the answer and
 * the work are the same whether or not the clinic holds data about the address. The decisions are
 * `request-decisions.server.ts`.
 */

/** Per client address, on top of the form's hourly budget: code and link attempts. */
export const privacyRateRules = {
  verifyIp: { window: 10 * 60, max: 30 },
  /** Proofs sent to one contact per hour: nobody can flood a stranger's inbox or phone through the form. */
  sendContact: { window: 60 * 60, max: 3 },
} satisfies Record<string, RateRule>;

// A pepper kept out of the database: a leaked table of 6-digit code hashes must not be brute-forced offline.
const fallbackPepper = randomBytes(32);

function secretHash(purpose: string, secret: string): string {
  const pepper = env().AUTH_SECRET ?? fallbackPepper;
  return createHmac("sha256", pepper).update(`privacy-request:${purpose}:${secret}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

export function recipientOf(row: PrivacyRequestRow): Recipient {
  return { id: row.id, name: row.name, email: row.email, phone: row.phone, userId: row.userId };
}

export function subjectOf(row: Pick<PrivacyRequestRow, "userId" | "email" | "phone">) {
  return dataSubject({ userId: row.userId, emails: [row.email], phones: [row.phone] });
}

function blocksWhileDeciding(row: Pick<PrivacyRequestRow, "right" | "blockingRequested">): boolean {
  return row.blockingRequested || row.right === "bloqueo";
}

/**
 * The request is received: the clock runs from `receivedAt`, the person is told at once (acknowledgment, art. 11),
 * and the data is blocked right away when they asked for it (art. 8 ter: nothing is processed until blocking is
 * answered, so it is granted at once).
 */
async function receive(
  tx: Database,
  row: PrivacyRequestRow,
  input: { receivedAt: Date; via: "session" | "email" | "whatsapp"; userId: string | null; now: Date },
): Promise<PrivacyRequestRow> {
  const dueAt = answerDueAt(input.receivedAt);
  const received: PrivacyRequestRow = {
    ...row,
    status: "received",
    verifiedVia: input.via,
    verifiedAt: input.now,
    receivedAt: input.receivedAt,
    dueAt,
    userId: input.userId,
  };
  await updateRequest(tx, row.id, {
    status: received.status,
    verifiedVia: received.verifiedVia,
    verifiedAt: received.verifiedAt,
    receivedAt: received.receivedAt,
    dueAt: received.dueAt,
    userId: received.userId,
  });
  await addEvent(tx, {
    requestId: row.id,
    kind: "verified",
    text: `Vence el ${dueDate(dueAt)}.`,
    details: { via: input.via },
    at: input.now,
  });
  const blocking = blocksWhileDeciding(row);
  if (blocking) {
    await addRestriction(tx, {
      kind: "bloqueo",
      subject: subjectOf(received),
      requestId: row.id,
      reason: `Bloqueo temporal mientras se decide la solicitud N.º ${requestReference(row.id)} (art. 8 ter).`,
      now: input.now,
    });
    await addEvent(tx, { requestId: row.id, kind: "blocking_applied", at: input.now });
  }
  await queuePersonMessage(
    tx,
    recipientOf(received),
    acknowledgmentMessage(clinicFacts(), {
      id: row.id,
      right: row.right as PrivacyRight,
      receivedDate: clinicDate(input.receivedAt),
      dueDate: dueDate(dueAt),
      blocking,
    }),
    { key: "acknowledged" },
  );
  await addEvent(tx, { requestId: row.id, kind: "acknowledged", at: input.now });
  await audit(tx, {
    actorId: input.via === "session" ? input.userId : null,
    action: "privacy.request_received",
    targetUserId: input.userId,
    details: { requestId: row.id, right: row.right, via: input.via, blocking },
    ip: null,
  });
  return received;
}

// ---------------------------------------------------------------------------------------------------------------
// Account holders (Mis Datos)
// ---------------------------------------------------------------------------------------------------------------

/** A request from a signed-in account: the session proves who asks, so it is received at once. */
export async function createAccountRequest(
  db: Database,
  user: { id: string },
  input: AccountRequestInput,
  now = new Date(),
): Promise<{ id: string; created: boolean }> {
  const contact = await userContact(db, user.id);
  if (!contact) throw new AppError("NOT_FOUND", "No encontramos tu cuenta.");
  const submissionId = input.submissionId ?? randomUUID();
  const result = await db.transaction(async (tx) => {
    const row = await insertRequest(tx, {
      submissionId,
      right: input.right,
      channel: "cuenta",
      userId: user.id,
      name: `${contact.firstName} ${contact.lastName}`.trim(),
      email: contact.email.toLowerCase(),
      phone: contact.phone,
      details: input.details,
      blockingRequested: input.blockingRequested && blockingMayBeAsked(input.right),
      status: "unverified",
    });
    if (!row) return null;
    await addEvent(tx, { requestId: row.id, kind: "created", actorId: user.id, at: now });
    await receive(tx, row, { receivedAt: now, via: "session", userId: user.id, now });
    return row.id;
  });
  if (result) {
    kickOutboxWorker();
    logger.info({ requestId: result, right: input.right, channel: "cuenta" }, "privacy request received");
    return { id: result, created: true };
  }
  const existing = await requestBySubmission(db, submissionId);
  if (!existing || existing.userId !== user.id)
    throw new AppError("CONFLICT", "La solicitud ya fue enviada.");
  return { id: existing.id, created: false };
}

// ---------------------------------------------------------------------------------------------------------------
// The public entry (/eliminar-datos)
// ---------------------------------------------------------------------------------------------------------------

export interface PublicReceipt {
  id: string;
  reference: string;
  via: "email" | "whatsapp";
}

/**
 * Stores an unverified request and sends the proof of control to the contact given: the e-mail's link, or (with
 * only a phone) the WhatsApp code. No table of people is read here, so the answer and the work are identical
 * whether or not the clinic knows the address. Charged to the client's hourly budget of the form; a contact that
 * was sent too many proofs this hour gets none (the answer is still the same).
 */
export async function createPublicRequest(
  db: Database,
  input: PublicRequestInput,
  writer: PublicWriter,
  now = new Date(),
): Promise<PublicReceipt> {
  const submissionId = input.submissionId ?? randomUUID();
  const via = input.email ? "email" : "whatsapp";
  const created = await db.transaction(async (tx) => {
    const row = await insertRequest(tx, {
      submissionId,
      right: input.right,
      channel: "publico",
      name: input.name,
      email: input.email,
      phone: input.phone,
      rut: input.rut,
      details: input.details,
      blockingRequested: input.blockingRequested,
      status: "unverified",
      createdAt: now,
    });
    if (!row) return null;
    await chargePublicWrite(tx, "dataRights", writer, now);
    await addEvent(tx, { requestId: row.id, kind: "created", details: { via }, at: now });
    const contactKey = `privacy-send:${input.email ?? input.phone}`;
    const budget = await consumeRate(tx, contactKey, privacyRateRules.sendContact, now);
    if (!budget.allowed) {
      await addEvent(tx, {
        requestId: row.id,
        kind: "verification_failed",
        text: "No se envió la confirmación: ese contacto recibió demasiadas en la última hora.",
        at: now,
      });
      return row.id;
    }
    if (via === "email") {
      const token = randomBytes(32).toString("base64url");
      await insertVerification(tx, {
        requestId: row.id,
        method: "email",
        secretHash: secretHash("link", token),
        expiresAt: new Date(now.getTime() + PRIVACY_LINK_TTL_MS),
      });
      const url = `${publicBaseUrl()}/eliminar-datos/confirmar/${token}`;
      await queueVerificationLink(
        tx,
        input.email!,
        verificationLinkMessage(
          clinicFacts(),
          { id: row.id, right: input.right },
          url,
          PRIVACY_LINK_LIFETIME,
        ),
      );
    } else {
      const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
      await insertVerification(tx, {
        requestId: row.id,
        method: "whatsapp",
        secretHash: secretHash(`code:${row.id}`, code),
        expiresAt: new Date(now.getTime() + PRIVACY_CODE_TTL_MS),
      });
      await queueVerificationCode(tx, { to: input.phone!, code, requestId: row.id });
    }
    await addEvent(tx, { requestId: row.id, kind: "verification_sent", details: { via }, at: now });
    await audit(tx, {
      actorId: null,
      action: "privacy.request_submitted",
      targetUserId: null,
      details: { requestId: row.id, right: input.right, via },
      ip: writer.ip,
    });
    return row.id;
  });
  if (created) {
    kickOutboxWorker();
    logger.info({ requestId: created, right: input.right, via }, "public privacy request stored, unverified");
    return { id: created, reference: requestReference(created), via };
  }
  const existing = await requestBySubmission(db, submissionId);
  if (!existing) throw new Error("privacy request vanished after a conflict");
  return {
    id: existing.id,
    reference: requestReference(existing.id),
    via: existing.email ? "email" : "whatsapp",
  };
}

async function chargeVerifyAttempt(db: Database, ip: string, now: Date) {
  const decision = await consumeAll(
    db,
    [{ key: `privacy-verify:ip:${ip}`, rule: privacyRateRules.verifyIp }],
    now,
  );
  if (!decision.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      "Demasiados intentos desde tu conexión. Intenta nuevamente en unos minutos.",
      decision.retryAfter ?? privacyRateRules.verifyIp.window,
    );
  }
}

/** Whether an e-mailed link can still confirm (the GET page shows a button; only the POST consumes it). */
export async function linkIsUsable(db: Database, token: string, now = new Date()): Promise<boolean> {
  if (!/^[\w-]{20,100}$/.test(token)) return false;
  return db.transaction(async (tx) => {
    const verification = await lockLinkVerification(tx, secretHash("link", token));
    return Boolean(
      verification && verification.consumedAt === null && verification.expiresAt.getTime() > now.getTime(),
    );
  });
}

const invalid = () => new AppError("NOT_FOUND", PRIVACY_VERIFICATION_MESSAGES.linkInvalid);

/** The e-mailed link, used once: the request is received and its clock starts. */
export async function confirmByLink(
  db: Database,
  token: string,
  ip: string,
  now = new Date(),
): Promise<{ reference: string; dueDate: string }> {
  await chargeVerifyAttempt(db, ip, now);
  if (!/^[\w-]{20,100}$/.test(token)) throw invalid();
  const result = await db.transaction(async (tx) => {
    const verification = await lockLinkVerification(tx, secretHash("link", token));
    if (
      !verification ||
      verification.consumedAt !== null ||
      verification.expiresAt.getTime() <= now.getTime()
    ) {
      return null;
    }
    const row = await lockRequest(tx, verification.requestId);
    if (!row || row.status !== "unverified") return null;
    await consumeVerification(tx, verification.id, now);
    const userId = await accountOfContact(tx, { email: row.email });
    const received = await receive(tx, row, {
      receivedAt: row.createdAt,
      via: "email",
      userId: userId ?? null,
      now,
    });
    return received;
  });
  if (!result) throw invalid();
  kickOutboxWorker();
  return { reference: requestReference(result.id), dueDate: dueDate(result.dueAt!) };
}

/** The WhatsApp code: 5 attempts, 10 minutes, once. */
export async function confirmByCode(
  db: Database,
  input: { request: string; code: string },
  ip: string,
  now = new Date(),
): Promise<{ reference: string; dueDate: string }> {
  await chargeVerifyAttempt(db, ip, now);
  type Outcome = { error: "expired" | "exhausted" | "wrong" } | { received: PrivacyRequestRow };
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const row = await lockRequest(tx, input.request);
    const verification = row ? await lockLatestCode(tx, row.id) : undefined;
    if (!row || !verification || row.status !== "unverified") return { error: "expired" };
    const verdict = privacyCodeVerdict(verification, now);
    if (verdict === "consumed" || verdict === "expired") return { error: "expired" };
    if (verdict === "exhausted") return { error: "exhausted" };
    if (!sameHash(verification.secretHash, secretHash(`code:${row.id}`, input.code))) {
      await countAttempt(tx, verification.id);
      await addEvent(tx, {
        requestId: row.id,
        kind: "verification_failed",
        text: "Código incorrecto.",
        at: now,
      });
      return { error: "wrong" };
    }
    await consumeVerification(tx, verification.id, now);
    const userId = await accountOfContact(tx, { phone: row.phone });
    const received = await receive(tx, row, {
      receivedAt: row.createdAt,
      via: "whatsapp",
      userId: userId ?? null,
      now,
    });
    return { received };
  });
  if ("error" in outcome) {
    const message = PRIVACY_VERIFICATION_MESSAGES[outcome.error];
    throw new AppError("VALIDATION", message);
  }
  kickOutboxWorker();
  return { reference: requestReference(outcome.received.id), dueDate: dueDate(outcome.received.dueAt!) };
}
