import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

/** A prospective patient captured by the landing form or the guided assistant (spec 001 §3). */
export const leads = pgTable(
  "leads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Generated when the form is rendered; a double submit carries the same id and creates nothing new. */
    submissionId: uuid("submission_id").notNull().unique(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    email: text("email"),
    treatment: text("treatment").notNull(),
    urgency: text("urgency").notNull(),
    budget: text("budget").notNull(),
    message: text("message").notNull().default(""),
    score: integer("score").notNull(),
    level: text("level").notNull(),
    reasons: jsonb("reasons").$type<string[]>().notNull(),
    status: text("status").notNull().default("new"),
    source: text("source").notNull(),
    consentAt: timestamp("consent_at", { withTimezone: true }).notNull(),
    lastContactAt: timestamp("last_contact_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index("leads_created_at_idx").on(table.createdAt),
    index("leads_level_idx").on(table.level),
    check("leads_score_range", sql`${table.score} between 0 and 100`),
    check("leads_level_values", sql`${table.level} in ('hot', 'warm', 'cold')`),
    check(
      "leads_status_values",
      sql`${table.status} in ('new', 'contacted', 'qualified', 'scheduled', 'converted', 'lost')`,
    ),
  ],
);

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
