import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { appointments } from "./appointments";
import { timestamps } from "./columns";

const requestStatusCheck = (column: unknown) => sql`${column} in ('new', 'in_progress', 'done')`;

/**
 * A "call me back" request: from /devolver-llamada ('formulario') or from a reminder's 'Necesito hablar con alguien'
 * link ('recordatorio', with the patient and the appointment).
 */
export const callbackRequests = pgTable(
  "callback_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id").notNull().unique(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    email: text("email"),
    preferredTime: text("preferred_time").notNull(),
    reason: text("reason").notNull().default(""),
    status: text("status").notNull().default("new"),
    source: text("source").notNull().default("formulario"),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    appointmentId: uuid("appointment_id").references(() => appointments.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    index("callback_requests_created_at_idx").on(table.createdAt),
    check("callback_requests_source_values", sql`${table.source} in ('formulario', 'recordatorio')`),
    check("callback_requests_status_values", requestStatusCheck(table.status)),
  ],
);
