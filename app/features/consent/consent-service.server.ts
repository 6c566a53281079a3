import type { Database } from "~/db/client.server";
import {
  contactDecision,
  consentState,
  type ContactDecision,
  type ContactPurpose,
  type LedgerEntry,
} from "~/domain/consent-rules";
import { canonicalConsentVersion, consentTextOf, currentConsentVersion } from "~/domain/consent-texts";
import { parseChileanPhone } from "~/domain/format";
import type { ConsentChannel, ConsentPurpose, PrivacyRestrictionKind } from "~/domain/privacy";
import { AppError } from "~/lib/base/errors";
import {
  accountContacts,
  consentRowOf,
  consentRows,
  insertConsent,
  mirrorWhatsAppOptIn,
  withdrawRows,
  type ConsentRow,
} from "./consent-repository.server";
import { activeRestrictions } from "./restrictions.server";
import { dataSubject, isEmptySubject, type DataSubject } from "./subject";

/**
 * The consent ledger (Ley 21.719, ADR 037): recording a consent where it is given, withdrawing it (as easily), listing
 * a person's consents, and `mayContact` — the one question every sending path asks before a message is queued and
 * again before it is sent. The rule itself is pure: `app/domain/consent-rules.ts`.
 */

export type { ConsentRow };

/** A phone as the ledger stores it (`+569XXXXXXXX`), from any common way of writing it (WhatsApp's bare digits too). */
export function ledgerPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  return parseChileanPhone(phone) ?? (/^\d{8,15}$/.test(phone) ? `+${phone}` : phone.trim());
}

/** A subject from contacts written any way: e-mails lower-cased, phones as `+569XXXXXXXX`. */
export function contactSubject(input: {
  userId?: string | null;
  emails?: Array<string | null | undefined>;
  phones?: Array<string | null | undefined>;
}): DataSubject {
  return dataSubject({ ...input, phones: (input.phones ?? []).map(ledgerPhone) });
}

/** An account as a data subject: its id, its e-mail and its phone (leads and restrictions match by these). */
export async function accountSubject(db: Pick<Database, "select">, userId: string): Promise<DataSubject> {
  const contacts = await accountContacts(db, userId);
  return contactSubject({ userId, emails: [contacts?.email], phones: [contacts?.phone] });
}

export interface RecordConsentInput {
  subject: DataSubject;
  purpose: ConsentPurpose;
  channel: ConsentChannel;
  /** The version of the text the person saw; default: the one shown today. */
  version?: string;
  leadId?: string | null;
  chatGuestId?: string | null;
  at?: Date;
}

/**
 * Records a giving: one ledger row with the account and the first e-mail and phone of the subject. An account's
 * WhatsApp consent is mirrored on `users.whatsapp_opt_in_at` in the same transaction (the caller's `db`).
 */
export async function recordConsent(db: Database, input: RecordConsentInput): Promise<ConsentRow> {
  const at = input.at ?? new Date();
  const version = canonicalConsentVersion(
    input.purpose,
    input.version ?? currentConsentVersion(input.purpose),
  );
  if (!consentTextOf(input.purpose, version)) {
    throw new AppError("VALIDATION", "Esa versión del texto de consentimiento no existe.");
  }
  if (isEmptySubject(input.subject) && !input.chatGuestId) {
    throw new Error("a consent needs a subject: an account, an e-mail, a phone or a chat guest");
  }
  const row = await insertConsent(db, {
    userId: input.subject.userId,
    email: input.subject.emails[0] ?? null,
    phone: input.subject.phones[0] ?? null,
    leadId: input.leadId ?? null,
    chatGuestId: input.chatGuestId ?? null,
    purpose: input.purpose,
    textVersion: version,
    channel: input.channel,
    givenAt: at,
  });
  if (input.purpose === "recordatorios_whatsapp" && input.subject.userId) {
    await mirrorWhatsAppOptIn(db, input.subject.userId, at);
  }
  return row;
}

/** Gives a consent unless it is already in force for the subject (a profile saved again records nothing new). */
export async function giveConsent(db: Database, input: RecordConsentInput): Promise<ConsentRow | null> {
  const rows = await consentRows(db, input.subject, {
    purposes: [input.purpose],
    chatGuestId: input.chatGuestId,
  });
  if (consentState(ledgerEntries(rows), input.purpose, input.at ?? new Date()) === "vigente") return null;
  return recordConsent(db, input);
}

/**
 * Withdraws the purpose's consent for the subject: every row still in force, whichever contact it was given through.
 * Answers how many rows it closed (0: nothing was in force). Takes effect at once: `mayContact` reads the ledger.
 */
export async function withdrawConsent(
  db: Database,
  input: {
    subject: DataSubject;
    purpose: ConsentPurpose;
    channel: ConsentChannel;
    chatGuestId?: string | null;
    at?: Date;
  },
): Promise<number> {
  const at = input.at ?? new Date();
  const closed = await withdrawRows(db, { ...input, at });
  if (input.purpose === "recordatorios_whatsapp" && input.subject.userId) {
    await mirrorWhatsAppOptIn(db, input.subject.userId, null);
  }
  return closed;
}

/** A checkbox that stays on or off (Mi Perfil): gives when on and not in force, withdraws when off. */
export async function setConsent(
  db: Database,
  input: {
    subject: DataSubject;
    purpose: ConsentPurpose;
    given: boolean;
    channel: ConsentChannel;
    at?: Date;
  },
): Promise<void> {
  if (input.given) await giveConsent(db, input);
  else await withdrawConsent(db, input);
}

/** Every ledger row about the subject, newest first. */
export async function listConsents(
  db: Database,
  subject: DataSubject,
  options: { chatGuestId?: string | null } = {},
): Promise<ConsentRow[]> {
  if (isEmptySubject(subject) && !options.chatGuestId) return [];
  return consentRows(db, subject, options);
}

/**
 * The person's own ledger row by id, for Mis Datos. Another person's id answers NOT_FOUND, exactly as an id that
 * does not exist: ownership is the session's subject, never the id a form sends.
 */
export async function ownConsent(db: Database, subject: DataSubject, id: string): Promise<ConsentRow> {
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await consentRowOf(db, subject, id) : undefined;
  if (!row) throw new AppError("NOT_FOUND", "No encontramos ese consentimiento.");
  return row;
}

/** Ledger rows as the pure rule reads them. */
export function ledgerEntries(rows: readonly ConsentRow[]): LedgerEntry[] {
  return rows.map((row) => ({
    purpose: row.purpose as ConsentPurpose,
    givenAt: row.givenAt,
    withdrawnAt: row.withdrawnAt,
  }));
}

/** The restriction kinds that matter to a contact purpose. */
function restrictionKindsFor(purpose: ContactPurpose): PrivacyRestrictionKind[] {
  return purpose === "marketing" ? ["bloqueo", "marketing", "perfilamiento"] : ["bloqueo"];
}

/**
 * THE question before any message to a person: may the clinic contact this subject for this purpose now? Reads the
 * ledger and the restrictions in force (pure rule: `contactDecision`). A subject with no contact at all has given no
 * consent. Sending code records `notSentReason(decision.reason)` when the answer is no.
 */
export async function mayContact(
  db: Database,
  subject: DataSubject,
  purpose: ContactPurpose,
  options: { chatGuestId?: string | null; now?: Date } = {},
): Promise<ContactDecision> {
  const now = options.now ?? new Date();
  if (purpose === "obligacion_legal") return contactDecision(purpose, [], [], now);
  // One after the other: `db` may be a transaction (one connection).
  const rows =
    isEmptySubject(subject) && !options.chatGuestId
      ? []
      : await consentRows(db, subject, { purposes: [purpose], chatGuestId: options.chatGuestId });
  const restrictions = await activeRestrictions(db, subject, restrictionKindsFor(purpose), now);
  return contactDecision(
    purpose,
    ledgerEntries(rows),
    restrictions.map((row) => row.kind as PrivacyRestrictionKind),
    now,
  );
}
