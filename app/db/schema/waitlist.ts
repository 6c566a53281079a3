import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  dayParts,
  freedSlotReasons,
  freedSlotStatuses,
  waitlistEntryStatuses,
  waitlistOfferStatuses,
} from "~/domain/waitlist";
import { users } from "./accounts";
import { appointments, treatmentsCatalog } from "./appointments";
import { quotedList, timestamps } from "./columns";

/**
 * A patient's wish to be told when an earlier time frees up (issue 23): a treatment, a dentist or any (null), the
 * weekdays (1 = Monday … 7; empty = any) and parts of the day that suit them, from `earliest_date` until `until_date`
 * (clinic dates). `appointment_id` is the booking they would move earlier, when they have one.
 */
export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    treatmentId: integer("treatment_id")
      .notNull()
      .references(() => treatmentsCatalog.id),
    dentistId: text("dentist_id").references(() => users.id, { onDelete: "set null" }),
    appointmentId: uuid("appointment_id").references(() => appointments.id, { onDelete: "set null" }),
    weekdays: smallint("weekdays")
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    dayParts: text("day_parts").array().notNull(),
    earliestDate: date("earliest_date", { mode: "string" }).notNull(),
    untilDate: date("until_date", { mode: "string" }).notNull(),
    status: text("status").notNull().default("activa"),
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }),
    fulfilledAppointmentId: uuid("fulfilled_appointment_id").references(() => appointments.id, {
      onDelete: "set null",
    }),
    ...timestamps,
  },
  (table) => [
    index("waitlist_entries_patient_idx").on(table.patientId),
    index("waitlist_entries_active_idx").on(table.status, table.treatmentId, table.createdAt),
    check("waitlist_entries_status_values", sql`${table.status} in (${quotedList(waitlistEntryStatuses)})`),
    check(
      "waitlist_entries_day_parts_values",
      sql`cardinality(${table.dayParts}) > 0 and ${table.dayParts} <@ array[${quotedList(dayParts)}]::text[]`,
    ),
    check("waitlist_entries_dates", sql`${table.untilDate} >= ${table.earliestDate}`),
  ],
);

/**
 * A slot that became free (a cancellation, a reschedule, an unpaid hold that expired) or that staff offer by hand,
 * written in the transaction that freed it. The waitlist job offers it in batches while it is 'abierta' (`next_batch_at`
 * says when the next batch may go); a claim or an ordinary booking of that time takes it, and it closes when it is
 * less than two hours away. One open row per dentist and start.
 */
export const freedSlots = pgTable(
  "freed_slots",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dentistId: text("dentist_id")
      .notNull()
      .references(() => users.id),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    reason: text("reason").notNull(),
    sourceAppointmentId: uuid("source_appointment_id").references(() => appointments.id, {
      onDelete: "set null",
    }),
    /** The patient whose cancellation or move freed it: never offered their own slot. */
    freedByPatientId: text("freed_by_patient_id").references(() => users.id, { onDelete: "set null" }),
    /** The staff member who offered it by hand. */
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    status: text("status").notNull().default("abierta"),
    nextBatchAt: timestamp("next_batch_at", { withTimezone: true }).notNull().defaultNow(),
    batchesSent: integer("batches_sent").notNull().default(0),
    takenAppointmentId: uuid("taken_appointment_id").references(() => appointments.id, {
      onDelete: "set null",
    }),
    takenAt: timestamp("taken_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("freed_slots_open_idx").on(table.status, table.nextBatchAt),
    index("freed_slots_starts_idx").on(table.startsAt),
    uniqueIndex("freed_slots_one_open")
      .on(table.dentistId, table.startsAt)
      .where(sql`${table.status} = 'abierta'`),
    check("freed_slots_reason_values", sql`${table.reason} in (${quotedList(freedSlotReasons)})`),
    check("freed_slots_status_values", sql`${table.status} in (${quotedList(freedSlotStatuses)})`),
    check("freed_slots_ends_after_start", sql`${table.endsAt} > ${table.startsAt}`),
  ],
);

/**
 * One offer of a freed slot to one waitlist entry, with its single-use link (only the SHA-256 of the token is kept).
 * The first claim under the slot's lock wins; the others end 'perdida'.
 */
export const waitlistOffers = pgTable(
  "waitlist_offers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slotId: uuid("slot_id")
      .notNull()
      .references(() => freedSlots.id, { onDelete: "cascade" }),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => waitlistEntries.id, { onDelete: "cascade" }),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    batch: integer("batch").notNull(),
    status: text("status").notNull().default("enviada"),
    sentBy: text("sent_by").references(() => users.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    appointmentId: uuid("appointment_id").references(() => appointments.id, { onDelete: "set null" }),
  },
  (table) => [
    uniqueIndex("waitlist_offers_slot_entry").on(table.slotId, table.entryId),
    index("waitlist_offers_patient_idx").on(table.patientId),
    check("waitlist_offers_status_values", sql`${table.status} in (${quotedList(waitlistOfferStatuses)})`),
  ],
);
