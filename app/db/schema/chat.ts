import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sessions, users } from "./accounts";
import { quotedList, timestamps } from "./columns";

/**
 * The guest chat platform: guests, rooms, their messages and the guests' refresh tokens (DESIGN decisions 14, 17,
 * 18).
 */

export const chatRoomStatuses = ["bot", "pending_human", "open", "resolved"] as const;
export const chatAuthors = ["guest", "agent", "staff", "system"] as const;
export const chatMessageKinds = ["message", "note"] as const;

/**
 * A chat guest. A signed-in user's guest has `external_id` = the user id; an anonymous guest is bound
 * to one browser by the SHA-256 of a random secret kept in an httpOnly cookie. Knowing the id proves nothing.
 */
export const chatGuests = pgTable(
  "chat_guests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: text("account_id").notNull(),
    externalId: text("external_id").references(() => users.id, { onDelete: "cascade" }),
    browserKeyHash: text("browser_key_hash"),
    firstName: text("first_name").notNull().default("Anonymous"),
    lastName: text("last_name").notNull().default("Visitor"),
    email: text("email"),
    phone: text("phone"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("chat_guests_account_external_idx").on(table.accountId, table.externalId),
    check("chat_guests_owner", sql`${table.externalId} is not null or ${table.browserKeyHash} is not null`),
  ],
);

/** A conversation between one guest and the agent (and staff after a handoff). */
export const chatRooms = pgTable(
  "chat_rooms",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: text("account_id").notNull(),
    guestId: uuid("guest_id")
      .notNull()
      .references(() => chatGuests.id, { onDelete: "cascade" }),
    agentId: text("agent_id").notNull(),
    status: text("status").notNull().default("bot"),
    handoffReason: text("handoff_reason"),
    handoffSummary: text("handoff_summary"),
    handoffAt: timestamp("handoff_at", { withTimezone: true }),
    /** Set by the agent's own emergency or distress handoff, never by what a guest sends: listed first. */
    handoffUrgent: boolean("handoff_urgent").notNull().default(false),
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** The AI-assistance notice the guest accepted (Ley 21.719): its version and when. */
    aiConsentVersion: text("ai_consent_version"),
    aiConsentAt: timestamp("ai_consent_at", { withTimezone: true }),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (table) => [
    index("chat_rooms_guest_idx").on(table.guestId),
    index("chat_rooms_status_activity_idx").on(table.status, table.lastMessageAt),
    check("chat_rooms_status_values", sql`${table.status} in (${quotedList(chatRoomStatuses)})`),
  ],
);

/**
 * The room's log, which is also the event stream: `seq` is the SSE event id (`Last-Event-ID` resumes after it).
 * `id` is supplied by the client, so a retried send never stores the message twice.
 */
export const chatMessages = pgTable(
  "chat_messages",
  {
    seq: integer("seq").primaryKey().generatedAlwaysAsIdentity(),
    id: uuid("id").notNull().unique(),
    roomId: uuid("room_id")
      .notNull()
      .references(() => chatRooms.id, { onDelete: "cascade" }),
    author: text("author").notNull(),
    staffUserId: text("staff_user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind").notNull().default("message"),
    content: text("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("chat_messages_room_seq_idx").on(table.roomId, table.seq),
    // The Overview's Bot IA line: the agent's last reply (ADR 026).
    index("chat_messages_author_seq_idx").on(table.author, table.seq),
    check("chat_messages_author_values", sql`${table.author} in (${quotedList(chatAuthors)})`),
    check("chat_messages_kind_values", sql`${table.kind} in (${quotedList(chatMessageKinds)})`),
    check("chat_messages_content_length", sql`char_length(${table.content}) between 1 and 4000`),
  ],
);

/**
 * Guest refresh tokens (only their SHA-256). Each use rotates the token within its family; presenting a token that
 * was already used revokes the whole family (the copy in an attacker's hands dies with the legitimate one). A
 * signed-in person's family is bound to the session it was issued under (ADR 032): it dies with it.
 */
export const chatRefreshTokens = pgTable(
  "chat_refresh_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    familyId: uuid("family_id").notNull(),
    guestId: uuid("guest_id")
      .notNull()
      .references(() => chatGuests.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The Better Auth session of a signed-in guest's login; null for an anonymous guest. */
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("chat_refresh_tokens_family_idx").on(table.familyId),
    index("chat_refresh_tokens_session_idx").on(table.sessionId),
  ],
);
