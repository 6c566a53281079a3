import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { quotedList } from "./columns";
import { leads } from "./leads";
import { whatsAppInboundMessages } from "./whatsapp";

export const leadHistoryKinds = ["whatsapp-inbound", "status", "note", "assignment", "duplicate"] as const;

/**
 * What happened with a lead after it came in: messages the person sent by WhatsApp, status changes, staff notes,
 * assignments and repeated requests (ADR 025). `details` holds the kind's facts (from/to/reason, the assignee,
 * what a duplicate asked); `actor_id` is the staff member, null for the system or the person.
 */
export const leadHistory = pgTable(
  "lead_history",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    leadId: uuid("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    text: text("text").notNull(),
    /** The inbound message this entry records (kind `whatsapp-inbound`). */
    inboundMessageId: uuid("inbound_message_id").references(() => whatsAppInboundMessages.id, {
      onDelete: "cascade",
    }),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    /** A merged duplicate's form submission id: the same submission sent twice is merged once. */
    submissionId: uuid("submission_id").unique(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("lead_history_lead_at_idx").on(table.leadId, table.at),
    check("lead_history_kind_values", sql`${table.kind} in (${quotedList(leadHistoryKinds)})`),
  ],
);

/**
 * Per staff member: away (no new leads are assigned to them) and when they were last given a lead, the round-robin
 * turn (ADR 025). A row is created the first time an asesor is considered.
 */
export const staffAvailability = pgTable("staff_availability", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  away: boolean("away").notNull().default(false),
  lastAssignedAt: timestamp("last_assigned_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
