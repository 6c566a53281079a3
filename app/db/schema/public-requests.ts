import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

const requestStatusCheck = (column: unknown) => sql`${column} in ('new', 'in_progress', 'done')`;

/** A data-subject request from /eliminar-datos (Ley 19.628 / 21.719 rights). */
export const dataRightsRequests = pgTable(
  "data_rights_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id").notNull().unique(),
    requestType: text("request_type").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    rut: text("rut"),
    details: text("details").notNull().default(""),
    status: text("status").notNull().default("new"),
    ...timestamps,
  },
  (table) => [
    index("data_rights_requests_created_at_idx").on(table.createdAt),
    check("data_rights_requests_status_values", requestStatusCheck(table.status)),
    check(
      "data_rights_requests_type_values",
      sql`${table.requestType} in ('acceso', 'rectificacion', 'eliminacion', 'portabilidad', 'oposicion')`,
    ),
  ],
);

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
