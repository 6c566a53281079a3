import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { appointments } from "./appointments";
import { quotedList } from "./columns";

/**
 * One reminder per appointment and start time (ADR 018): the row is inserted in the transaction that queues the
 * message, so several workers or instances never queue two; a rescheduled appointment has a new start and gets its
 * own. `message_id` is the queued WhatsApp message (null when the patient's number could not take one).
 */
export const appointmentReminders = pgTable(
  "appointment_reminders",
  {
    appointmentId: uuid("appointment_id")
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    messageId: uuid("message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.appointmentId, table.startsAt] })],
);

export const appointmentActionKinds = ["confirm", "cancel"] as const;

/**
 * The single-use links of a reminder ('Confirmar', 'Cancelar'): only the SHA-256 of the random token is stored, so
 * the table cannot be turned back into working links. Each expires at the start it was issued for.
 */
export const appointmentActionTokens = pgTable(
  "appointment_action_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appointmentId: uuid("appointment_id")
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("appointment_action_tokens_appointment_idx").on(table.appointmentId),
    check(
      "appointment_action_tokens_action_values",
      sql`${table.action} in (${quotedList(appointmentActionKinds)})`,
    ),
  ],
);
