import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { reminderSteps } from "~/domain/reminder-sequence";
import { appointments } from "./appointments";
import { quotedList } from "./columns";

/**
 * One reminder per appointment, start time and step of the sequence (ADR 018, issue 23): the row is inserted in the
 * transaction that queues the message, so several workers or instances never queue two; a rescheduled appointment has
 * a new start and gets its own. `message_id` is the queued WhatsApp message and `mail_outbox_id` the queued e-mail (both
 * null when the step was claimed and skipped: `skipped` says why).
 */
export const appointmentReminders = pgTable(
  "appointment_reminders",
  {
    appointmentId: uuid("appointment_id")
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    step: text("step").notNull().default("24h"),
    messageId: uuid("message_id"),
    mailOutboxId: uuid("mail_outbox_id"),
    skipped: text("skipped"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.appointmentId, table.startsAt, table.step] }),
    check("appointment_reminders_step_values", sql`${table.step} in (${quotedList(reminderSteps)})`),
  ],
);

export const appointmentActionKinds = ["confirm", "cancel", "callback"] as const;

/**
 * The single-use links of a reminder ('Confirmar', 'Cancelar', 'Necesito hablar con alguien'): only the SHA-256 of the random token is stored, so
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
