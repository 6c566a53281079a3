import { and, asc, desc, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { chatGuests, chatMessages, chatRefreshTokens, chatRooms, users } from "~/db/schema";

export type ChatGuestRow = typeof chatGuests.$inferSelect;
export type ChatRoomRow = typeof chatRooms.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;

export async function findGuest(db: Database, id: string): Promise<ChatGuestRow | undefined> {
  const [row] = await db.select().from(chatGuests).where(eq(chatGuests.id, id));
  return row;
}

export async function findGuestByExternalId(db: Database, accountId: string, externalId: string) {
  const [row] = await db
    .select()
    .from(chatGuests)
    .where(and(eq(chatGuests.accountId, accountId), eq(chatGuests.externalId, externalId)));
  return row;
}

/** Inserts, or returns the user's existing guest when two creations race (unique account + external id). */
export async function insertGuest(
  db: Database,
  values: typeof chatGuests.$inferInsert,
): Promise<ChatGuestRow> {
  const [row] = await db.insert(chatGuests).values(values).onConflictDoNothing().returning();
  if (row) return row;
  const existing =
    values.externalId && (await findGuestByExternalId(db, values.accountId, values.externalId));
  if (!existing) throw new Error("chat guest insert conflicted without an existing row");
  return existing;
}

export async function updateGuest(
  db: Database,
  id: string,
  values: Partial<Pick<ChatGuestRow, "firstName" | "lastName" | "email" | "phone">>,
) {
  const [row] = await db
    .update(chatGuests)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(chatGuests.id, id))
    .returning();
  return row;
}

export async function findRoom(db: Database, id: string): Promise<ChatRoomRow | undefined> {
  const [row] = await db.select().from(chatRooms).where(eq(chatRooms.id, id));
  return row;
}

/** The first name of the staff member a room is assigned to (the room's members panel), if any. */
export async function assigneeFirstName(db: Database, userId: string | null): Promise<string | undefined> {
  if (!userId) return undefined;
  const [row] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, userId));
  return row?.firstName;
}

/** The guest's newest conversation with this agent that is not resolved: reopening the widget rejoins it. */
export async function findOpenRoom(db: Database, guestId: string, agentId: string) {
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

export async function insertRoom(db: Database, values: typeof chatRooms.$inferInsert): Promise<ChatRoomRow> {
  const [row] = await db.insert(chatRooms).values(values).returning();
  return row!;
}

export async function updateRoom(db: Database, id: string, values: Partial<typeof chatRooms.$inferInsert>) {
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
  db: Database,
  id: string,
  from: readonly string[],
  values: Partial<typeof chatRooms.$inferInsert>,
  /** When given, the room must still be held by this person (null: by nobody), as when the decision was made. */
  heldBy?: string | null,
): Promise<ChatRoomRow | undefined> {
  const holder =
    heldBy === undefined
      ? undefined
      : heldBy === null
        ? isNull(chatRooms.assignedTo)
        : eq(chatRooms.assignedTo, heldBy);
  const [row] = await db
    .update(chatRooms)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(chatRooms.id, id), inArray(chatRooms.status, [...from]), holder))
    .returning();
  return row;
}

/** The room's messages after `afterSeq`, oldest first; internal notes only when asked (staff). */
export async function messagesAfter(
  db: Database,
  roomId: string,
  afterSeq: number,
  options: { includeNotes?: boolean; limit?: number } = {},
) {
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

/** The rows of a raw `db.execute` (both drivers answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The columns of a `chat_messages` row, in raw SQL (the one-statement paths below). */
const MESSAGE_COLUMNS = sql.raw("seq, id, room_id, author, staff_user_id, kind, content, created_at");
/** The NOTIFY channel of chat-hub.server.ts (DESIGN decision 17). */
export const CHAT_CHANNEL = "chat_rooms";

type RawMessage = {
  seq: number | string | null;
  id: string | null;
  room_id: string | null;
  author: string | null;
  staff_user_id: string | null;
  kind: string | null;
  content: string | null;
  created_at: Date | string | null;
};

function messageRow(raw: RawMessage): ChatMessageRow {
  return {
    seq: Number(raw.seq),
    id: raw.id!,
    roomId: raw.room_id!,
    author: raw.author!,
    staffUserId: raw.staff_user_id,
    kind: raw.kind!,
    content: raw.content!,
    createdAt: raw.created_at instanceof Date ? raw.created_at : new Date(raw.created_at!),
  };
}

async function findMessage(db: Database, id: string): Promise<ChatMessageRow | undefined> {
  const [row] = await db.select().from(chatMessages).where(eq(chatMessages.id, id));
  return row;
}

/**
 * Stores a message unless its client-supplied id exists (then returns the stored one, `created: false`), moves the
 * room's activity time and NOTIFYs the room's channel — one statement, one round trip to the database. The NOTIFY
 * is delivered when the statement commits, so a listener that reads the room then sees the message.
 *
 * Both inserts lock the room's row first (`for update`), before the message's `seq` is drawn: two messages into
 * one room then commit in `seq` order, so a feed that has read up to `seq` n never misses a lower one that
 * commits later (on PostgreSQL; the embedded database has one connection).
 */
export async function insertMessage(
  db: Database,
  values: typeof chatMessages.$inferInsert,
): Promise<{ row: ChatMessageRow; created: boolean }> {
  const result = await db.execute(sql`
    with room as (
      select id from chat_rooms where id = ${values.roomId} for update
    ), ins as (
      insert into chat_messages (id, room_id, author, staff_user_id, kind, content)
      select ${values.id}::uuid, room.id, ${values.author}::text, ${values.staffUserId ?? null}::text,
             ${values.kind ?? "message"}::text, ${values.content}::text from room
      on conflict do nothing
      returning ${MESSAGE_COLUMNS}
    ), touched as (
      update chat_rooms set last_message_at = ins.created_at from ins where chat_rooms.id = ins.room_id returning 1
    ), notified as (
      select 1 from ins cross join lateral pg_notify(${CHAT_CHANNEL}, ins.room_id::text)
    )
    select true as created, ${MESSAGE_COLUMNS}, (select count(*) from notified) as notified from ins
    union all
    select false, ${MESSAGE_COLUMNS}, 0 from chat_messages where id = ${values.id} and not exists (select 1 from ins)
  `);
  const [raw] = rowsOf<RawMessage & { created: boolean }>(result);
  if (raw) return { row: messageRow(raw), created: raw.created };
  // The id was being inserted by a concurrent statement (PostgreSQL) that had not committed yet: read it now.
  const existing = await findMessage(db, values.id);
  if (!existing) throw new Error("chat message insert conflicted without an existing row");
  return { row: existing, created: false };
}

export type GuestPostResult =
  | { kind: "no-room" }
  | { kind: "closed" }
  | { kind: "needs-consent" }
  | { kind: "stored"; status: string; row: ChatMessageRow; created: boolean };

/**
 * A guest's message in one statement: the room must be this guest's (in this account) and accept messages — a
 * person's conversation, or the bot's once the AI notice was accepted — and then the message is stored (or the
 * stored one with the same client id returned), the room's activity moved and the room NOTIFYed. The checks and the
 * insert see the same snapshot, so a room resolved in between cannot take the message.
 */
export async function insertGuestMessage(
  db: Database,
  input: {
    guestId: string;
    accountId: string;
    roomId: string;
    id: string;
    content: string;
  },
): Promise<GuestPostResult> {
  const result = await db.execute(sql`
    with room as (
      select id, status, ai_consent_at is not null as consented from chat_rooms
      where id = ${input.roomId} and guest_id = ${input.guestId} and account_id = ${input.accountId}
      for update
    ), ins as (
      insert into chat_messages (id, room_id, author, kind, content)
      select ${input.id}::uuid, room.id, 'guest', 'message', ${input.content}::text from room
      where room.status in ('pending_human', 'open') or (room.status = 'bot' and room.consented)
      on conflict do nothing
      returning ${MESSAGE_COLUMNS}
    ), touched as (
      update chat_rooms set last_message_at = ins.created_at from ins where chat_rooms.id = ins.room_id returning 1
    ), notified as (
      select 1 from ins cross join lateral pg_notify(${CHAT_CHANNEL}, ins.room_id::text)
    )
    select room.status as room_status, room.consented as room_consented, ins.seq is not null as created,
      coalesce(ins.seq, m.seq) as seq, coalesce(ins.id, m.id) as id, coalesce(ins.room_id, m.room_id) as room_id,
      coalesce(ins.author, m.author) as author, coalesce(ins.staff_user_id, m.staff_user_id) as staff_user_id,
      coalesce(ins.kind, m.kind) as kind, coalesce(ins.content, m.content) as content,
      coalesce(ins.created_at, m.created_at) as created_at, (select count(*) from notified) as notified
    from room
    left join ins on true
    left join chat_messages m on ins.seq is null and m.id = ${input.id}
  `);
  const [raw] = rowsOf<RawMessage & { room_status: string; room_consented: boolean; created: boolean }>(
    result,
  );
  if (!raw) return { kind: "no-room" };
  if (raw.room_status === "resolved") return { kind: "closed" };
  if (raw.room_status === "bot" && !raw.room_consented) return { kind: "needs-consent" };
  if (raw.seq !== null) {
    return { kind: "stored", status: raw.room_status, row: messageRow(raw), created: raw.created };
  }
  // Same race as in insertMessage: a concurrent statement holds the id and had not committed.
  const existing = await findMessage(db, input.id);
  if (!existing) throw new Error("chat message insert conflicted without an existing row");
  return { kind: "stored", status: raw.room_status, row: existing, created: false };
}

/**
 * What a room's feed reads on a wake, in one statement: the room's status and its messages after `afterSeq`
 * (oldest first, at most `limit`; internal notes only when asked). `status` is undefined when the room is gone.
 */
export async function roomUpdatesAfter(
  db: Database,
  roomId: string,
  afterSeq: number,
  options: { includeNotes: boolean; limit: number },
): Promise<{ rows: ChatMessageRow[]; status: string | undefined }> {
  const result = await db.execute(sql`
    select r.status as room_status, ${sql.raw(
      "m.seq, m.id, m.room_id, m.author, m.staff_user_id, m.kind, m.content, m.created_at",
    )}
    from chat_rooms r
    left join lateral (
      select ${MESSAGE_COLUMNS} from chat_messages
      where room_id = r.id and seq > ${afterSeq} ${options.includeNotes ? sql`` : sql`and kind = 'message'`}
      order by seq limit ${options.limit}
    ) m on true
    where r.id = ${roomId}
    order by m.seq
  `);
  const raws = rowsOf<RawMessage & { room_status: string }>(result);
  const status = raws[0]?.room_status;
  const rows = raws.filter((raw) => raw.seq !== null).map(messageRow);
  return { rows, status };
}

/** The inbox lists only rooms where the guest wrote: empty rooms opened by anyone are not conversations. */
const guestWrote = sql`exists (select 1 from ${chatMessages} where ${chatMessages.roomId} = ${chatRooms.id} and ${chatMessages.author} = 'guest')`;

/**
 * The inbox's rooms of one status, each status read on its own so that no section crowds out another. Waiting
 * rooms come urgent first, then longest waiting first; the others by latest activity.
 */
export async function inboxRoomsByStatus(db: Database, status: string, limit: number) {
  return db
    .select({
      room: chatRooms,
      firstName: chatGuests.firstName,
      lastName: chatGuests.lastName,
    })
    .from(chatRooms)
    .innerJoin(chatGuests, eq(chatGuests.id, chatRooms.guestId))
    .where(and(eq(chatRooms.status, status), guestWrote))
    .orderBy(
      ...(status === "pending_human"
        ? [desc(chatRooms.handoffUrgent), asc(chatRooms.handoffAt)]
        : [desc(chatRooms.lastMessageAt)]),
    )
    .limit(limit);
}

export async function insertRefreshToken(db: Database, values: typeof chatRefreshTokens.$inferInsert) {
  await db.insert(chatRefreshTokens).values(values);
}

export async function findRefreshToken(db: Database, tokenHash: string) {
  const [row] = await db.select().from(chatRefreshTokens).where(eq(chatRefreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks the token used if nobody did before; false = it was already used (a replay, or a race with one). */
export async function consumeRefreshToken(db: Database, id: string, now: Date): Promise<boolean> {
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

export async function revokeFamily(db: Database, familyId: string, now: Date) {
  await db
    .update(chatRefreshTokens)
    .set({ revokedAt: sql`coalesce(${chatRefreshTokens.revokedAt}, ${now})` })
    .where(eq(chatRefreshTokens.familyId, familyId));
}
