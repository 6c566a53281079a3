import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

const requestStatusCheck = (column: unknown) => sql`${column} in ('new', 'in_progress', 'done')`;

/** A "call me back" request from /devolver-llamada. */
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
    ...timestamps,
  },
  (table) => [
    index("callback_requests_created_at_idx").on(table.createdAt),
    check("callback_requests_status_values", requestStatusCheck(table.status)),
  ],
);
