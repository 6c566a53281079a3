import { and, asc, desc, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { chatGuests, chatMessages, chatRefreshTokens, chatRooms } from "~/db/schema";

export type ChatGuestRow = typeof chatGuests.$inferSelect;
export type ChatRoomRow = typeof chatRooms.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;

export async function findGuest(id: string): Promise<ChatGuestRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(chatGuests).where(eq(chatGuests.id, id));
  return row;
}

export async function findGuestByExternalId(accountId: string, externalId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(chatGuests)
    .where(and(eq(chatGuests.accountId, accountId), eq(chatGuests.externalId, externalId)));
  return row;
}

/** Inserts, or returns the user's existing guest when two creations race (unique account + external id). */
export async function insertGuest(values: typeof chatGuests.$inferInsert): Promise<ChatGuestRow> {
  const db = await getDb();
  const [row] = await db.insert(chatGuests).values(values).onConflictDoNothing().returning();
  if (row) return row;
  const existing = values.externalId && (await findGuestByExternalId(values.accountId, values.externalId));
  if (!existing) throw new Error("chat guest insert conflicted without an existing row");
  return existing;
}

export async function updateGuest(
  id: string,
  values: Partial<Pick<ChatGuestRow, "firstName" | "lastName" | "email" | "phone">>,
) {
  const db = await getDb();
  const [row] = await db
    .update(chatGuests)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(chatGuests.id, id))
    .returning();
  return row;
}

export async function findRoom(id: string): Promise<ChatRoomRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(chatRooms).where(eq(chatRooms.id, id));
  return row;
}

/** The guest's newest conversation with this agent that is not resolved: reopening the widget rejoins it. */
export async function findOpenRoom(guestId: string, agentId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(chatRooms)
    .where(
      and(eq(chatRooms.guestId, guestId), eq(chatRooms.agentId, agentId), ne(chatRooms.status, "resolved")),
    )
    .orderBy(desc(chatRooms.createdAt))
    .limit(1);
  return row;
}

export async function insertRoom(values: typeof chatRooms.$inferInsert): Promise<ChatRoomRow> {
  const db = await getDb();
  const [row] = await db.insert(chatRooms).values(values).returning();
  return row!;
}

export async function updateRoom(id: string, values: Partial<typeof chatRooms.$inferInsert>) {
  const db = await getDb();
  const [row] = await db
    .update(chatRooms)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(chatRooms.id, id))
    .returning();
  return row;
}

/**
 * Moves a room from one of `from` to `to` in one statement: of two staff taking the same conversation at once,
 * exactly one gets the row back.
 */
export async function transitionRoom(
  id: string,
  from: readonly string[],
  values: Partial<typeof chatRooms.$inferInsert>,
): Promise<ChatRoomRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(chatRooms)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(chatRooms.id, id), inArray(chatRooms.status, [...from])))
    .returning();
  return row;
}

/** Stores a message unless its client-supplied id exists; then returns the stored one (`created: false`). */
export async function insertMessage(
  values: typeof chatMessages.$inferInsert,
): Promise<{ row: ChatMessageRow; created: boolean }> {
  const db = await getDb();
  const [row] = await db.insert(chatMessages).values(values).onConflictDoNothing().returning();
  if (row) {
    await db.update(chatRooms).set({ lastMessageAt: row.createdAt }).where(eq(chatRooms.id, row.roomId));
    return { row, created: true };
  }
  const [existing] = await db.select().from(chatMessages).where(eq(chatMessages.id, values.id));
  if (!existing) throw new Error("chat message insert conflicted without an existing row");
  return { row: existing, created: false };
}

/** The room's messages after `afterSeq`, oldest first; internal notes only when asked (staff). */
export async function messagesAfter(
  roomId: string,
  afterSeq: number,
  options: { includeNotes?: boolean; limit?: number } = {},
) {
  const db = await getDb();
  return db
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.roomId, roomId),
        gt(chatMessages.seq, afterSeq),
        options.includeNotes ? undefined : eq(chatMessages.kind, "message"),
      ),
    )
    .orderBy(asc(chatMessages.seq))
    .limit(options.limit ?? 500);
}

export async function roomsByStatus(statuses: readonly string[]) {
  const db = await getDb();
  return db
    .select({
      room: chatRooms,
      firstName: chatGuests.firstName,
      lastName: chatGuests.lastName,
    })
    .from(chatRooms)
    .innerJoin(chatGuests, eq(chatGuests.id, chatRooms.guestId))
    .where(inArray(chatRooms.status, [...statuses]))
    .orderBy(desc(chatRooms.lastMessageAt))
    .limit(200);
}

export async function insertRefreshToken(values: typeof chatRefreshTokens.$inferInsert) {
  const db = await getDb();
  await db.insert(chatRefreshTokens).values(values);
}

export async function findRefreshToken(tokenHash: string) {
  const db = await getDb();
  const [row] = await db.select().from(chatRefreshTokens).where(eq(chatRefreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks the token used if nobody did before; false = it was already used (a replay, or a race with one). */
export async function consumeRefreshToken(id: string, now: Date): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(chatRefreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(chatRefreshTokens.id, id),
        isNull(chatRefreshTokens.usedAt),
        isNull(chatRefreshTokens.revokedAt),
      ),
    )
    .returning({ id: chatRefreshTokens.id });
  return rows.length === 1;
}

export async function revokeFamily(familyId: string, now: Date) {
  const db = await getDb();
  await db
    .update(chatRefreshTokens)
    .set({ revokedAt: sql`coalesce(${chatRefreshTokens.revokedAt}, ${now})` })
    .where(eq(chatRefreshTokens.familyId, familyId));
}
