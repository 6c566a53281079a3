import { and, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { consents, users } from "~/db/schema";
import type { ConsentChannel, ConsentPurpose } from "~/domain/privacy";
import type { DataSubject } from "./subject";

export type ConsentRow = typeof consents.$inferSelect;
export type NewConsentRow = typeof consents.$inferInsert;

/** The condition "this ledger row is about the subject": the account, any of its e-mails or phones, or a chat guest. */
function aboutSubject(subject: DataSubject, chatGuestId?: string | null): SQL {
  const conditions: SQL[] = [];
  if (subject.userId) conditions.push(eq(consents.userId, subject.userId));
  if (subject.emails.length > 0) conditions.push(inArray(sql`lower(${consents.email})`, subject.emails));
  if (subject.phones.length > 0) conditions.push(inArray(consents.phone, subject.phones));
  if (chatGuestId) conditions.push(eq(consents.chatGuestId, chatGuestId));
  return conditions.length > 0 ? (or(...conditions) as SQL) : sql`false`;
}

/** Every ledger row about the subject, newest first (optionally of some purposes only). */
export async function consentRows(
  db: Pick<Database, "select">,
  subject: DataSubject,
  options: { purposes?: readonly ConsentPurpose[]; chatGuestId?: string | null } = {},
): Promise<ConsentRow[]> {
  return db
    .select()
    .from(consents)
    .where(
      and(
        aboutSubject(subject, options.chatGuestId),
        options.purposes ? inArray(consents.purpose, [...options.purposes]) : undefined,
      ),
    )
    .orderBy(desc(consents.givenAt), desc(consents.createdAt));
}

/** One ledger row about the subject, by its id; undefined for another person's row (or none). */
export async function consentRowOf(db: Pick<Database, "select">, subject: DataSubject, id: string) {
  const [row] = await db
    .select()
    .from(consents)
    .where(and(eq(consents.id, id), aboutSubject(subject)))
    .limit(1);
  return row;
}

export async function insertConsent(db: Pick<Database, "insert">, row: NewConsentRow): Promise<ConsentRow> {
  const [stored] = await db.insert(consents).values(row).returning();
  if (!stored) throw new Error("consent row not stored");
  return stored;
}

/** Marks every row of the purpose about the subject that is still in force as withdrawn; answers how many. */
export async function withdrawRows(
  db: Pick<Database, "update">,
  input: {
    subject: DataSubject;
    chatGuestId?: string | null;
    purpose: ConsentPurpose;
    channel: ConsentChannel;
    at: Date;
  },
): Promise<number> {
  const rows = await db
    .update(consents)
    .set({ withdrawnAt: input.at, withdrawnChannel: input.channel })
    .where(
      and(
        aboutSubject(input.subject, input.chatGuestId),
        eq(consents.purpose, input.purpose),
        isNull(consents.withdrawnAt),
      ),
    )
    .returning({ id: consents.id });
  return rows.length;
}

/**
 * `users.whatsapp_opt_in_at` mirrors the account's WhatsApp consent (the reminder job's cheap first filter and Mi
 * Perfil's checkbox): set when given (keeping the first time while it stays on), cleared when withdrawn.
 */
export async function mirrorWhatsAppOptIn(
  db: Pick<Database, "update">,
  userId: string,
  givenAt: Date | null,
): Promise<void> {
  await db
    .update(users)
    .set({
      whatsappOptInAt: givenAt
        ? sql`coalesce(${users.whatsappOptInAt}, ${givenAt.toISOString()}::timestamptz)`
        : null,
    })
    .where(eq(users.id, userId));
}

/** The account's own contacts (for its subject): e-mail and phone, or undefined when there is no such account. */
export async function accountContacts(db: Pick<Database, "select">, userId: string) {
  const [row] = await db
    .select({ email: users.email, phone: users.phone })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}
