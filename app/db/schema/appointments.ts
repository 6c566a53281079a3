import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { appointmentStatuses } from "~/domain/appointment-status";
import { users } from "./accounts";
import { quotedList, timestamps } from "./columns";

/** The clinic: its treatments, the dentists' weekly schedules, appointments (ADR 005). */

export const treatmentsCatalog = pgTable("treatments", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  durationMinutes: integer("duration_minutes").notNull(),
  /** CLP, whole pesos. */
  basePrice: integer("base_price").notNull(),
});

/** A dentist's working block on one weekday (1 = Monday … 7 = Sunday), clinic-local "HH:MM" times. */
export const dentistScheduleBlocks = pgTable(
  "dentist_schedule_blocks",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    dentistId: text("dentist_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    weekday: integer("weekday").notNull(),
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
  },
  (table) => [
    index("dentist_schedule_blocks_dentist_idx").on(table.dentistId),
    check("dentist_schedule_blocks_weekday", sql`${table.weekday} between 1 and 7`),
  ],
);

export const appointments = pgTable(
  "appointments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dentistId: text("dentist_id")
      .notNull()
      .references(() => users.id),
    treatmentId: integer("treatment_id").references(() => treatmentsCatalog.id),
    /** UTC instants; the clinic's zone is America/Santiago (DESIGN decision 8). */
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    durationMinutes: integer("duration_minutes"),
    status: text("status").notNull().default("scheduled"),
    notes: text("notes"),
    /** CLP: the treatment's price when it was booked, what a late-cancellation fee is counted on (ADR 036). */
    agreedPrice: integer("agreed_price"),
    /** CLP charged for a late cancellation (50% of the treatment) or a no-show. */
    cancellationFee: integer("cancellation_fee"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** When the patient confirmed (a reminder's link, Mis Citas) or the deposit confirmed it: the confirmation rate. */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** When staff marked it 'No asistió', and who. */
    noShowMarkedAt: timestamp("no_show_marked_at", { withTimezone: true }),
    noShowMarkedBy: text("no_show_marked_by").references(() => users.id, { onDelete: "set null" }),
    /** A booking waiting for its deposit ("Pendiente de pago") holds the slot until then (ADR 036). */
    paymentHoldExpiresAt: timestamp("payment_hold_expires_at", { withTimezone: true }),
    /** Set by the Dentalink write-through (ADR 023): the appointment and patient at Dentalink, once created. */
    dentalinkAppointmentId: text("dentalink_appointment_id"),
    dentalinkPatientId: text("dentalink_patient_id"),
    ...timestamps,
  },
  (table) => [
    index("appointments_patient_starts_idx").on(table.patientId, table.startsAt),
    index("appointments_dentist_starts_idx").on(table.dentistId, table.startsAt),
    // The reminder job looks at every patient's appointments of the next day (ADR 018).
    index("appointments_starts_idx").on(table.startsAt),
    check("appointments_ends_after_start", sql`${table.endsAt} > ${table.startsAt}`),
    check("appointments_status_values", sql`${table.status} in (${quotedList(appointmentStatuses)})`),
    // The exclusion constraint that makes two overlapping appointments of one dentist impossible is in
    // migration 0001 (drizzle-kit does not model EXCLUDE constraints).
  ],
);
