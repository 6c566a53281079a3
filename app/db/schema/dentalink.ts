import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { dentalinkPatientLinkSources } from "~/domain/dentalink-patient-link";
import { users } from "./accounts";
import { quotedList, timestamps } from "./columns";
import { leads } from "./leads";

/**
 * Dentalink: the sync tab's submissions, the mock's records, and which Dentalink dentist and patient each of ours
 * is.
 */

export const dentalinkSyncOutcomes = ["processing", "success", "failed"] as const;

/**
 * One submission of the sync tab: who sent it, from which lead, what was asked (a summary: never the medical
 * history text), what Dentalink answered. `submission_id` is the form's idempotency key: a double submit finds this
 * row and gets its result instead of creating a second patient and appointment.
 */
export const dentalinkSyncs = pgTable(
  "dentalink_syncs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id").notNull().unique(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    leadId: uuid("lead_id").references(() => leads.id, { onDelete: "set null" }),
    /** `live` or `mock` (demo mode without a key). */
    mode: text("mode").notNull(),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    outcome: text("outcome").notNull().default("processing"),
    patientId: text("patient_id"),
    /** True when an existing Dentalink patient was reused (found by `matched_by`). */
    patientReused: boolean("patient_reused"),
    matchedBy: text("matched_by"),
    appointmentId: text("appointment_id"),
    message: text("message"),
    errors: jsonb("errors").$type<string[]>().notNull().default([]),
    /** The technical reason of a failure (vendor code and status), for staff and logs; never personal data. */
    errorDetail: text("error_detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("dentalink_syncs_created_at_idx").on(table.createdAt),
    index("dentalink_syncs_lead_idx").on(table.leadId),
    check("dentalink_syncs_outcome_values", sql`${table.outcome} in (${quotedList(dentalinkSyncOutcomes)})`),
    check("dentalink_syncs_mode_values", sql`${table.mode} in ('live', 'mock')`),
  ],
);

/**
 * What was created in the Dentalink mock (mode without a key): its patients and appointments, in the vendor's
 * field names, so a second sync of the same patient finds it, also after a restart. The id is the mock's own
 * (the next integer after the largest, never random); the primary key keeps two instances from taking the same.
 */
export const dentalinkMockPatients = pgTable("dentalink_mock_patients", {
  id: integer("id").primaryKey(),
  record: jsonb("record").$type<Record<string, unknown>>().notNull(),
  ...timestamps,
});

export const dentalinkMockAppointments = pgTable("dentalink_mock_appointments", {
  id: integer("id").primaryKey(),
  record: jsonb("record").$type<Record<string, unknown>>().notNull(),
  ...timestamps,
});

export const dentalinkDentistLinkSources = ["name", "admin"] as const;

/**
 * Which Dentalink dentist (`/dentistas` id) is each of our dentists: the agenda a portal booking is written to.
 * Filled once by matching normalised full names (`source` 'name'), set or cleared by an admin ('admin'). A row
 * with a null `dentalink_dentist_id` is a dentist an admin left unlinked on purpose (no name match is tried again).
 * No row, or a null id: the write-through fails with a recorded reason instead of booking another dentist.
 */
export const dentalinkDentistLinks = pgTable(
  "dentalink_dentist_links",
  {
    dentistId: text("dentist_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    dentalinkDentistId: text("dentalink_dentist_id"),
    source: text("source").notNull(),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    // One Dentalink agenda per dentist of ours.
    uniqueIndex("dentalink_dentist_links_dentalink_id_unique")
      .on(table.dentalinkDentistId)
      .where(sql`${table.dentalinkDentistId} is not null`),
    check(
      "dentalink_dentist_links_source_values",
      sql`${table.source} in (${quotedList(dentalinkDentistLinkSources)})`,
    ),
  ],
);

/**
 * Which Dentalink patient each portal account is (ADR 030): chosen once by
 * `domain/dentalink-patient-link.ts` (the Mi Ficha binding, a unique verified e-mail, or a patient the write-through
 * created) and reused for every later booking, so editing the profile never moves an account to another record.
 */
export const dentalinkPatientLinks = pgTable(
  "dentalink_patient_links",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    dentalinkPatientId: text("dentalink_patient_id").notNull(),
    source: text("source").notNull(),
    ...timestamps,
  },
  (table) => [
    check(
      "dentalink_patient_links_source_values",
      sql`${table.source} in (${quotedList(dentalinkPatientLinkSources)})`,
    ),
  ],
);
