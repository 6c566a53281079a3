import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import {
  consentChannels,
  consentPurposes,
  dataExportStatuses,
  privacyIncidentStatuses,
  privacyRequestChannels,
  privacyRequestStatuses,
  privacyRestrictionKinds,
  privacyRights,
  privacyVerificationMethods,
} from "~/domain/privacy";
import { users } from "./accounts";
import { chatGuests } from "./chat";
import { quotedList, timestamps } from "./columns";
import { leads } from "./leads";
import { outbox } from "./outbox";

/**
 * The privacy centre (Ley 21.719, ADR 037): data-subject requests and their history, the proof that the person
 * controls the contact, the consent ledger, objections and blocking, background exports, the breach register.
 */

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * One exercise of a right (arts. 4–8 ter). The legal clock runs from `received_at` (proof of control for the public
 * entry, at once for an account): `due_at` 30 calendar days later, extendable once (`extended_at`, with a reason
 * sent to the person). `outcome` records what was done per table, and what was kept, why and until when.
 */
export const privacyRequests = pgTable(
  "privacy_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The form's idempotency key: a double submit finds this row. */
    submissionId: uuid("submission_id").notNull().unique(),
    right: text("right").notNull(),
    channel: text("channel").notNull(),
    /** The account that asked, or the account the proven contact belongs to; null for someone without one. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull().default(""),
    /** The contact whose control is proven: lower-case e-mail and/or phone as `+569XXXXXXXX`. */
    email: text("email"),
    phone: text("phone"),
    rut: text("rut"),
    /** What the person wrote: for rectification, the correction. */
    details: text("details").notNull().default(""),
    /** The person asked for their data to be blocked while the request is decided (art. 8 ter). */
    blockingRequested: boolean("blocking_requested").notNull().default(false),
    status: text("status").notNull(),
    verifiedVia: text("verified_via"),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }),
    dueAt: timestamp("due_at", { withTimezone: true }),
    extendedAt: timestamp("extended_at", { withTimezone: true }),
    extensionReason: text("extension_reason"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decisionReason: text("decision_reason"),
    outcome: jsonb("outcome").$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (table) => [
    index("privacy_requests_status_due_idx").on(table.status, table.dueAt),
    index("privacy_requests_user_idx").on(table.userId, table.createdAt),
    index("privacy_requests_email_idx").on(sql`lower(${table.email})`),
    index("privacy_requests_phone_idx").on(table.phone),
    check("privacy_requests_right_values", sql`${table.right} in (${quotedList(privacyRights)})`),
    check(
      "privacy_requests_channel_values",
      sql`${table.channel} in (${quotedList(privacyRequestChannels)})`,
    ),
    check("privacy_requests_status_values", sql`${table.status} in (${quotedList(privacyRequestStatuses)})`),
    check(
      "privacy_requests_verified_via_values",
      sql`${table.verifiedVia} is null or ${table.verifiedVia} in (${quotedList(privacyVerificationMethods)})`,
    ),
    check(
      "privacy_requests_contact",
      sql`${table.email} is not null or ${table.phone} is not null or ${table.userId} is not null`,
    ),
    check(
      "privacy_requests_clock",
      sql`${table.status} in ('unverified', 'expired') or (${table.receivedAt} is not null and ${table.dueAt} is not null)`,
    ),
  ],
);

/** Every step of a request (received, verified, note, extension, decision, execution, message sent): its history. */
export const privacyRequestEvents = pgTable(
  "privacy_request_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => privacyRequests.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    text: text("text").notNull().default(""),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Insertion order: the history is sorted by (at, seq). `at` alone ties when two steps of one transaction are
     * written within the clock's resolution (PGlite's clock moves in milliseconds): the acknowledgement then came
     * before the message it follows, by the luck of a random id.
     */
    seq: bigserial("seq", { mode: "number" }).notNull(),
  },
  (table) => [index("privacy_request_events_request_idx").on(table.requestId, table.at)],
);

/**
 * Proof of control of the public entry: a single-use link e-mailed to the address, or a code sent by WhatsApp to the
 * phone. Only hashes are kept; a few wrong codes burn it.
 */
export const privacyVerifications = pgTable(
  "privacy_verifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => privacyRequests.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    secretHash: text("secret_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("privacy_verifications_request_idx").on(table.requestId),
    index("privacy_verifications_secret_idx").on(table.secretHash),
    check("privacy_verifications_method_values", sql`${table.method} in ('email', 'whatsapp')`),
    check("privacy_verifications_attempts", sql`${table.attempts} >= 0`),
  ],
);

/**
 * The consent ledger: every consent the product asks for, one row per giving — who (account, lead, contact), for
 * which purpose, which version of the text, when and through which channel — and when it was withdrawn. Sending
 * code asks `features/privacy` (one function) before any message.
 */
export const consents = pgTable(
  "consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    leadId: uuid("lead_id").references(() => leads.id, { onDelete: "set null" }),
    /** An anonymous chat guest (the AI chat notice), bound to one browser. */
    chatGuestId: uuid("chat_guest_id").references(() => chatGuests.id, { onDelete: "cascade" }),
    /** Lower-case e-mail and/or phone as `+569XXXXXXXX`, for a person without an account. */
    email: text("email"),
    phone: text("phone"),
    purpose: text("purpose").notNull(),
    textVersion: text("text_version").notNull(),
    channel: text("channel").notNull(),
    givenAt: timestamp("given_at", { withTimezone: true }).notNull(),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
    withdrawnChannel: text("withdrawn_channel"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("consents_user_purpose_idx").on(table.userId, table.purpose),
    index("consents_email_purpose_idx").on(sql`lower(${table.email})`, table.purpose),
    index("consents_phone_purpose_idx").on(table.phone, table.purpose),
    index("consents_lead_idx").on(table.leadId),
    check("consents_purpose_values", sql`${table.purpose} in (${quotedList(consentPurposes)})`),
    check("consents_channel_values", sql`${table.channel} in (${quotedList(consentChannels)})`),
    check(
      "consents_withdrawn_channel_values",
      sql`${table.withdrawnChannel} is null or ${table.withdrawnChannel} in (${quotedList(consentChannels)})`,
    ),
    check(
      "consents_subject",
      sql`${table.userId} is not null or ${table.email} is not null or ${table.phone} is not null or ${table.chatGuestId} is not null`,
    ),
  ],
);

/**
 * Objections and blocking (arts. 8, 8 bis, 8 ter): while a row is in force (`ends_at` null or in the future) the
 * person's data is not profiled, not used for marketing, or not processed at all except to keep it.
 */
export const privacyRestrictions = pgTable(
  "privacy_restrictions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    phone: text("phone"),
    requestId: uuid("request_id").references(() => privacyRequests.id, { onDelete: "set null" }),
    reason: text("reason").notNull().default(""),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("privacy_restrictions_user_idx").on(table.userId, table.kind),
    index("privacy_restrictions_email_idx").on(sql`lower(${table.email})`, table.kind),
    index("privacy_restrictions_phone_idx").on(table.phone, table.kind),
    check("privacy_restrictions_kind_values", sql`${table.kind} in (${quotedList(privacyRestrictionKinds)})`),
    check(
      "privacy_restrictions_subject",
      sql`${table.userId} is not null or ${table.email} is not null or ${table.phone} is not null`,
    ),
  ],
);

/**
 * A background export of an account holder's data (access and portability): a ZIP with the JSON of every row and a
 * PDF summary, kept here (bytea) for 7 days and downloadable by its owner only. Claimed by the export job with a
 * lease, so two instances never build the same one.
 */
export const dataExports = pgTable(
  "data_exports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("queued"),
    /** 0–100, with the step being worked on ("Citas", "Pagos"…), shown while it runs. */
    progress: smallint("progress").notNull().default(0),
    step: text("step"),
    fileName: text("file_name"),
    file: bytea("file"),
    bytes: integer("bytes"),
    sha256: text("sha256"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    readyAt: timestamp("ready_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    downloadCount: integer("download_count").notNull().default(0),
    lastDownloadedAt: timestamp("last_downloaded_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index("data_exports_user_idx").on(table.userId, table.createdAt),
    index("data_exports_status_idx").on(table.status, table.createdAt),
    check("data_exports_status_values", sql`${table.status} in (${quotedList(dataExportStatuses)})`),
    check("data_exports_progress_range", sql`${table.progress} between 0 and 100`),
  ],
);

/**
 * The breach register (art. 14 sexies): what happened, when it was discovered, which data and people, the measures,
 * and when the Agency and the people were told.
 */
export const privacyIncidents = pgTable(
  "privacy_incidents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }),
    discoveredAt: timestamp("discovered_at", { withTimezone: true }).notNull(),
    dataCategories: text("data_categories").notNull(),
    /** Whether health data (sensitive, art. 16) is involved: the people must then be told. */
    sensitiveData: boolean("sensitive_data").notNull().default(false),
    peopleAffected: integer("people_affected"),
    affectedDescription: text("affected_description").notNull().default(""),
    measures: text("measures").notNull().default(""),
    agencyNotifiedAt: timestamp("agency_notified_at", { withTimezone: true }),
    peopleNotifiedAt: timestamp("people_notified_at", { withTimezone: true }),
    /** The reviewed text sent to the people affected. */
    notificationText: text("notification_text"),
    notificationApprovedBy: text("notification_approved_by").references(() => users.id, {
      onDelete: "set null",
    }),
    status: text("status").notNull().default("open"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    index("privacy_incidents_discovered_idx").on(table.discoveredAt),
    check(
      "privacy_incidents_status_values",
      sql`${table.status} in (${quotedList(privacyIncidentStatuses)})`,
    ),
    check("privacy_incidents_people", sql`${table.peopleAffected} is null or ${table.peopleAffected} >= 0`),
  ],
);

/** Each person told about an incident, and the outbox message that told them (sent once). */
export const privacyIncidentNotices = pgTable(
  "privacy_incident_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    incidentId: uuid("incident_id")
      .notNull()
      .references(() => privacyIncidents.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email"),
    phone: text("phone"),
    channel: text("channel").notNull(),
    outboxId: uuid("outbox_id").references(() => outbox.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("privacy_incident_notices_incident_idx").on(table.incidentId),
    check("privacy_incident_notices_channel_values", sql`${table.channel} in ('email', 'whatsapp')`),
  ],
);

/** A job that must run once per period (the daily retention sweep, the privacy contact's digest) claims it here. */
export const jobRuns = pgTable(
  "job_runs",
  {
    job: text("job").notNull(),
    period: text("period").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    summary: jsonb("summary").$type<Record<string, unknown>>(),
  },
  (table) => [primaryKey({ columns: [table.job, table.period] })],
);
