import { and, eq, gt, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { privacyRestrictions } from "~/db/schema";
import type { PrivacyRestrictionKind } from "~/domain/privacy";
import { isEmptySubject, type DataSubject } from "./subject";

/**
 * Objections and blocking (Ley 21.719 arts. 8, 8 bis, 8 ter; ADR 037): rows of `privacy_restrictions` in force until
 * `ends_at`. One place writes and reads them; `mayContact` and the lead scorer consult `activeRestrictions`.
 */

export type Restriction = typeof privacyRestrictions.$inferSelect;

/** The condition "this row is about the subject" (account, any of its e-mails, any of its phones). */
function aboutSubject(subject: DataSubject): SQL | undefined {
  const conditions: SQL[] = [];
  if (subject.userId) conditions.push(eq(privacyRestrictions.userId, subject.userId));
  if (subject.emails.length > 0) {
    conditions.push(inArray(sql`lower(${privacyRestrictions.email})`, subject.emails));
  }
  if (subject.phones.length > 0) conditions.push(inArray(privacyRestrictions.phone, subject.phones));
  return or(...conditions);
}

function inForce(now: Date): SQL | undefined {
  return and(
    sql`${privacyRestrictions.startsAt} <= ${now}`,
    or(isNull(privacyRestrictions.endsAt), gt(privacyRestrictions.endsAt, now)),
  );
}

/** The subject's restrictions in force at `now`, of the given kinds (all kinds when omitted). */
export async function activeRestrictions(
  db: Database,
  subject: DataSubject,
  kinds?: readonly PrivacyRestrictionKind[],
  now: Date = new Date(),
): Promise<Restriction[]> {
  if (isEmptySubject(subject)) return [];
  return db
    .select()
    .from(privacyRestrictions)
    .where(
      and(
        aboutSubject(subject),
        inForce(now),
        kinds ? inArray(privacyRestrictions.kind, [...kinds]) : undefined,
      ),
    );
}

/**
 * Puts a restriction in force for the subject (one row per contact given, so a later lead with only the phone is
 * matched too). A kind already in force for the same request is not added twice.
 */
export async function addRestriction(
  db: Database,
  input: {
    kind: PrivacyRestrictionKind;
    subject: DataSubject;
    requestId?: string | null;
    reason?: string;
    createdBy?: string | null;
    now?: Date;
  },
): Promise<void> {
  const now = input.now ?? new Date();
  const existing = await activeRestrictions(db, input.subject, [input.kind], now);
  const covered = (row: Restriction) => (input.requestId ? row.requestId === input.requestId : true);
  const base = {
    kind: input.kind,
    requestId: input.requestId ?? null,
    reason: input.reason ?? "",
    createdBy: input.createdBy ?? null,
    startsAt: now,
  };
  const rows: Array<typeof privacyRestrictions.$inferInsert> = [];
  const { userId, emails, phones } = input.subject;
  if (userId && !existing.some((r) => covered(r) && r.userId === userId)) rows.push({ ...base, userId });
  for (const email of emails) {
    if (!existing.some((r) => covered(r) && r.email?.toLowerCase() === email)) rows.push({ ...base, email });
  }
  for (const phone of phones) {
    if (!existing.some((r) => covered(r) && r.phone === phone)) rows.push({ ...base, phone });
  }
  if (rows.length > 0) await db.insert(privacyRestrictions).values(rows);
}

/**
 * Ends restrictions at `now`: those a request put in force (`requestId`), or the subject's of one kind (a person
 * withdrawing their own objection). Returns how many ended.
 */
export async function endRestrictions(
  db: Database,
  input:
    { requestId: string; now?: Date } | { subject: DataSubject; kind: PrivacyRestrictionKind; now?: Date },
): Promise<number> {
  const now = input.now ?? new Date();
  const which =
    "requestId" in input
      ? eq(privacyRestrictions.requestId, input.requestId)
      : isEmptySubject(input.subject)
        ? sql`false`
        : and(aboutSubject(input.subject), eq(privacyRestrictions.kind, input.kind));
  const ended = await db
    .update(privacyRestrictions)
    .set({ endsAt: now })
    .where(and(which, inForce(now)))
    .returning({ id: privacyRestrictions.id });
  return ended.length;
}
