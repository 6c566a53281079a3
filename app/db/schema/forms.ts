import { sql } from "drizzle-orm";
import {
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { formAssignmentStatuses, formKinds } from "~/domain/forms";
import { users } from "./accounts";
import { appointments } from "./appointments";
import { quotedList } from "./columns";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * A form's definition (DESIGN decision 23: forms are data): sections and questions as JSON, validated by the forms
 * feature's schema. A change is a new version; a submission names the version it answered. `treatment_slugs` says
 * which procedures a consent form is for (empty: every first visit, for the health history).
 */
export const formDefinitions = pgTable(
  "form_definitions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull(),
    version: integer("version").notNull(),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    treatmentSlugs: text("treatment_slugs")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("form_definitions_slug_version").on(table.slug, table.version),
    check("form_definitions_kind_values", sql`${table.kind} in (${quotedList(formKinds)})`),
  ],
);

/**
 * A form the patient must fill before an appointment, created with the booking. The draft (answers so far) lets them
 * save and resume; it is the patient's own until submitted.
 */
export const formAssignments = pgTable(
  "form_assignments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appointmentId: uuid("appointment_id")
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    formSlug: text("form_slug").notNull(),
    status: text("status").notNull().default("pendiente"),
    draft: jsonb("draft").$type<Record<string, unknown>>(),
    draftVersion: integer("draft_version"),
    draftSavedAt: timestamp("draft_saved_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("form_assignments_appointment_form").on(table.appointmentId, table.formSlug),
    index("form_assignments_patient_idx").on(table.patientId, table.status),
    check("form_assignments_status_values", sql`${table.status} in (${quotedList(formAssignmentStatuses)})`),
  ],
);

/**
 * A submitted form: the structured answers, the drawn signature, the PDF the patient can download, when and from
 * where, and the definition's version. Immutable (a trigger in migration 0027 refuses updates): a new answer is a new
 * row that `supersedes_id` the previous one. Part of the clinical record (Ley 20.584 art. 14): retained, not erased.
 */
export const formSubmissions = pgTable(
  "form_submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    assignmentId: uuid("assignment_id").references(() => formAssignments.id, { onDelete: "set null" }),
    appointmentId: uuid("appointment_id").references(() => appointments.id, { onDelete: "set null" }),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    definitionId: uuid("definition_id")
      .notNull()
      .references(() => formDefinitions.id),
    answers: jsonb("answers").$type<Record<string, unknown>>().notNull(),
    signaturePng: bytea("signature_png"),
    pdf: bytea("pdf").notNull(),
    pdfSha256: text("pdf_sha256").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    supersedesId: uuid("supersedes_id"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("form_submissions_patient_idx").on(table.patientId, table.submittedAt),
    index("form_submissions_appointment_idx").on(table.appointmentId),
  ],
);
