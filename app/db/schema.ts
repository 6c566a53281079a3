import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { appointmentStatuses } from "~/domain/appointment-status";
import { dentalinkPatientLinkSources } from "~/domain/dentalink-patient-link";
import { whatsAppMessageStatuses } from "~/domain/whatsapp-message-status";

/** `'a', 'b'` for a check constraint; only for lists defined in code, never for input. */
const quotedList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));

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
    /** The first time staff contacted the lead: 'Tiempo Respuesta' is measured from creation to this (issue 13). */
    firstContactAt: timestamp("first_contact_at", { withTimezone: true }),
    /** The asesor who owns the lead (issue 13: round-robin at creation, an admin can reassign). */
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** Why a lead was marked lost (one of the pipeline's reasons); null unless status is 'lost'. */
    lostReason: text("lost_reason"),
    /** The last time the same person asked again while this lead was open (a merged duplicate, issue 13). */
    resubmittedAt: timestamp("resubmitted_at", { withTimezone: true }),
    /**
     * The furthest funnel stage the lead has reached (issue 13, ADR 025/026): 0 new, 1 contacted, 2 qualified,
     * 3 scheduled, 4 converted. Never goes down (a lost lead keeps the stage it reached), so the funnel's stages are
     * cumulative. Kept by the trigger `leads_furthest_stage` on every insert and status or first-contact change.
     */
    furthestStage: smallint("furthest_stage").notNull().default(0),
    ...timestamps,
    /**
     * What the panel's search matches (issue 13, DESIGN decision 19): the name and e-mail folded to lower case without
     * accents, and the phone as bare digits, so 'gonzalez' finds 'González' and '9 1234-5678' finds '+56912345678'.
     * `f_unaccent` is the IMMUTABLE wrapper of unaccent() created by migration 0013.
     */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`f_unaccent(lower(name || ' ' || coalesce(email, ''))) || ' ' || regexp_replace(phone, '[^0-9]', '', 'g')`,
      ),
  },
  (table) => [
    // Newest first with a total order; (created_at, id) lets a deep page be an index-only scan.
    index("leads_created_at_id_idx").on(table.createdAt, table.id),
    // Trigram index behind the per-word `search_text LIKE '%word%'` conditions (pg_trgm, migration 0013).
    index("leads_search_text_trgm_idx").using("gin", table.searchText.op("gin_trgm_ops")),
    // The panel's sort orders, each newest first within its key.
    // Any mix of the panel's equality filters in one index (btree_gin, migration 0013): GIN intersects the posting
    // lists, so a combination that matches few or no leads is found without a scan.
    index("leads_filters_gin_idx").using(
      "gin",
      table.level,
      table.status,
      table.source,
      table.treatment,
      table.assignedTo,
    ),
    index("leads_score_created_at_id_idx").on(table.score, table.createdAt, table.id),
    index("leads_last_contact_sort_idx").on(
      sql`coalesce(${table.lastContactAt}, '-infinity'::timestamptz)`,
      table.createdAt,
      table.id,
    ),
    index("leads_assigned_to_idx").on(table.assignedTo, table.createdAt),
    index("leads_level_idx").on(table.level),
    // A new request is merged into the open lead with the same e-mail (any case) or phone (issue 13).
    index("leads_open_email_idx")
      .on(sql`lower(${table.email})`)
      .where(sql`${table.status} not in ('converted', 'lost') and ${table.email} is not null`),
    // An inbound WhatsApp message is filed under the latest lead with its number.
    index("leads_phone_idx").on(table.phone, table.createdAt),
    check("leads_score_range", sql`${table.score} between 0 and 100`),
    check("leads_furthest_stage_range", sql`${table.furthestStage} between 0 and 4`),
    check("leads_level_values", sql`${table.level} in ('hot', 'warm', 'cold')`),
    check(
      "leads_status_values",
      sql`${table.status} in ('new', 'contacted', 'qualified', 'scheduled', 'converted', 'lost')`,
    ),
  ],
);

/**
 * How many leads there are per level and status, kept exact by a trigger on `leads` (migration 0013), so the panel's
 * counters and the count of a level/status view never scan 100,000 leads.
 */
export const leadTallies = pgTable(
  "lead_tallies",
  {
    level: text("level").notNull(),
    status: text("status").notNull(),
    n: integer("n").notNull(),
  },
  (table) => [primaryKey({ columns: [table.level, table.status] })],
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

// ---------------------------------------------------------------------------------------------------------------
// Accounts (Better Auth's models: user, session, account, verification, twoFactor). The JS keys are Better Auth's
// field names; `user.name` is mapped to first_name (DESIGN decision 2).

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull().default(""),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    phone: text("phone"),
    address: text("address"),
    emergencyContact: text("emergency_contact"),
    emergencyPhone: text("emergency_phone"),
    rut: text("rut"),
    /** When the user agreed to WhatsApp messages about their appointments (issue 9); null = not agreed. */
    whatsappOptInAt: timestamp("whatsapp_opt_in_at", { withTimezone: true }),
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [index("users_last_name_idx").on(table.lastName)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    ...timestamps,
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (table) => [
    index("accounts_user_id_idx").on(table.userId),
    uniqueIndex("accounts_provider_account_idx").on(table.providerId, table.accountId),
  ],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [
    index("two_factors_user_id_idx").on(table.userId),
    index("two_factors_secret_idx").on(table.secret),
  ],
);

/**
 * The sign-in step-up past the per-account failure limit (issue 19): after the right password, a one-time code
 * e-mailed to the owner and bound to that browser's challenge cookie. Only hashes are kept: the challenge's SHA-256
 * and the code's HMAC keyed with the auth secret. A new step-up of the account replaces the older ones.
 */
export const signInStepUps = pgTable(
  "sign_in_step_ups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    challengeHash: text("challenge_hash").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("sign_in_step_ups_challenge_idx").on(table.challengeHash),
    index("sign_in_step_ups_user_idx").on(table.userId),
    check("sign_in_step_ups_attempts", sql`${table.attempts} >= 0`),
  ],
);

/** spec 000 §3 user_roles + roles. */
export const roles = pgTable("roles", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  name: text("name").notNull().unique(),
});

export const userRoles = pgTable(
  "user_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id),
    isActive: boolean("is_active").notNull().default(true),
    ...timestamps,
  },
  (table) => [primaryKey({ columns: [table.userId, table.roleId] })],
);

/** Fixed-window counters for rate limits, shared by every instance (DESIGN §6). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
});

/** Append-only record of staff changes and clinical-record reads (DESIGN §6). */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorId: text("actor_id"),
    actorRoles: text("actor_roles").notNull().default(""),
    action: text("action").notNull(),
    targetUserId: text("target_user_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    ip: text("ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("audit_log_created_at_idx").on(table.createdAt)],
);

/**
 * Outbound side effects (e-mail now; WhatsApp and Dentalink later), written in the transaction of the business
 * row and delivered by the outbox worker with retries (DESIGN §4).
 */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    deliveredVia: text("delivered_via"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Insertion order. Rows written in one transaction share `next_attempt_at` (now() is the transaction's start),
     * so the worker claims by due time, then by this: a lead's advisor notice goes out before the patient's
     * confirmation written after it (issue 9).
     */
    seq: bigserial("seq", { mode: "number" }).notNull(),
  },
  (table) => [
    index("outbox_due_idx").on(table.status, table.nextAttemptAt),
    // The Overview's backlog line: the oldest pending item (issue 13).
    index("outbox_pending_created_idx")
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending'`),
    check("outbox_status_values", sql`${table.status} in ('pending', 'sent', 'failed')`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Clinic: treatments, dentists' weekly schedules, appointments (spec 000 §3).

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
    /** CLP charged for a late cancellation (50% of the treatment) or a no-show. */
    cancellationFee: integer("cancellation_fee"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Set by the Dentalink write-through (issue 10): the appointment and patient at Dentalink, once created. */
    dentalinkAppointmentId: text("dentalink_appointment_id"),
    dentalinkPatientId: text("dentalink_patient_id"),
    ...timestamps,
  },
  (table) => [
    index("appointments_patient_starts_idx").on(table.patientId, table.startsAt),
    index("appointments_dentist_starts_idx").on(table.dentistId, table.startsAt),
    // The reminder job looks at every patient's appointments of the next day (issue 9).
    index("appointments_starts_idx").on(table.startsAt),
    check("appointments_ends_after_start", sql`${table.endsAt} > ${table.startsAt}`),
    check("appointments_status_values", sql`${table.status} in (${quotedList(appointmentStatuses)})`),
    // The exclusion constraint that makes two overlapping appointments of one dentist impossible is in
    // migration 0001 (drizzle-kit does not model EXCLUDE constraints).
  ],
);

/** The patient portal's virtual-advisor conversation, kept per user (spec 000 §3 "Chat message"). */
export const advisorMessages = pgTable(
  "advisor_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    content: text("content").notNull(),
    type: text("type").notNull().default("general"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("advisor_messages_user_created_idx").on(table.userId, table.createdAt),
    check("advisor_messages_role_values", sql`${table.role} in ('user', 'assistant')`),
    check("advisor_messages_type_values", sql`${table.type} in ('general', 'appointment', 'emergency')`),
    check("advisor_messages_content_length", sql`char_length(${table.content}) between 1 and 4000`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Messaging (issue 9, DESIGN decision 13).

export const whatsAppMessageKinds = ["text", "template"] as const;

/**
 * One outbound WhatsApp message and what became of it. The id is the outbox row's id, which is also the
 * provider's `messageId` (its idempotency key), so delivery reports find the row by it. A lead's or user's
 * messages go with them (the number and text are personal data); an appointment's stay, without the link.
 */
export const whatsAppMessages = pgTable(
  "whatsapp_messages",
  {
    id: uuid("id").primaryKey(),
    purpose: text("purpose").notNull(),
    leadId: uuid("lead_id").references(() => leads.id, { onDelete: "cascade" }),
    appointmentId: uuid("appointment_id").references(() => appointments.id, { onDelete: "set null" }),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Digits with the country code, as the provider takes them (`56912345678`). */
    toPhone: text("to_phone").notNull(),
    kind: text("kind").notNull(),
    text: text("text"),
    templateName: text("template_name"),
    templatePlaceholders: jsonb("template_placeholders").$type<string[]>(),
    testMode: boolean("test_mode"),
    providerMessageId: text("provider_message_id"),
    status: text("status").notNull().default("queued"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    readAt: timestamp("read_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
  },
  (table) => [
    index("whatsapp_messages_status_idx").on(table.status),
    index("whatsapp_messages_created_at_idx").on(table.createdAt),
    index("whatsapp_messages_provider_message_id_idx").on(table.providerMessageId),
    // /funnel/mensajes filtered by phone or purpose, newest first; the test card's API log (purpose "test").
    index("whatsapp_messages_to_phone_created_at_idx").on(table.toPhone, table.createdAt),
    index("whatsapp_messages_purpose_created_at_idx").on(table.purpose, table.createdAt),
    // The lead page's messages (`where lead_id = $1 order by created_at desc`) and the cascade when a lead is deleted.
    index("whatsapp_messages_lead_id_created_at_idx").on(table.leadId, table.createdAt),
    check("whatsapp_messages_kind_values", sql`${table.kind} in (${quotedList(whatsAppMessageKinds)})`),
    check(
      "whatsapp_messages_status_values",
      sql`${table.status} in (${quotedList(whatsAppMessageStatuses)})`,
    ),
    check(
      "whatsapp_messages_content",
      sql`(${table.kind} = 'text' and ${table.text} is not null) or (${table.kind} = 'template' and ${table.templateName} is not null)`,
    ),
  ],
);

/**
 * One reminder per appointment and start time (issue 9): the row is inserted in the transaction that queues the
 * message, so several workers or instances never queue two; a rescheduled appointment has a new start and gets its
 * own. `message_id` is the queued WhatsApp message (null when the patient's number could not take one).
 */
export const appointmentReminders = pgTable(
  "appointment_reminders",
  {
    appointmentId: uuid("appointment_id")
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    messageId: uuid("message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.appointmentId, table.startsAt] })],
);

export const appointmentActionKinds = ["confirm", "cancel"] as const;

/**
 * The single-use links of a reminder ('Confirmar', 'Cancelar'): only the SHA-256 of the random token is stored, so
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

// ---------------------------------------------------------------------------------------------------------------
// Dentalink (issue 10, DESIGN decision 12).

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
 * Which Dentalink patient each portal account is (issue 19 item 2, ADR 030): chosen once by
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

/**
 * Whoever wrote to the clinic's WhatsApp number, by number (digits with the country code, as `to_phone`): the
 * time of their last message opens WhatsApp's 24-hour customer-care window, within which free text may be sent
 * to them (`app/domain/whatsapp-window.ts`); outside it only templates.
 */
export const whatsAppContacts = pgTable("whatsapp_contacts", {
  phone: text("phone").primaryKey(),
  lastInboundAt: timestamp("last_inbound_at", { withTimezone: true }).notNull(),
  /** The profile name WhatsApp gave with the last message that had one. */
  contactName: text("contact_name"),
  ...timestamps,
});

/**
 * Each inbound WhatsApp message, once (the provider's messageId is unique: a replayed webhook adds nothing). Goes
 * with the lead it was filed under; a message from the clinic's own number has none.
 */
export const whatsAppInboundMessages = pgTable(
  "whatsapp_inbound_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    providerMessageId: text("provider_message_id").notNull().unique(),
    fromPhone: text("from_phone").notNull(),
    toPhone: text("to_phone").notNull(),
    /** Infobip's message type (`TEXT`, `IMAGE`…); only TEXT has a text. */
    type: text("type").notNull(),
    text: text("text"),
    contactName: text("contact_name"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    leadId: uuid("lead_id").references(() => leads.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("whatsapp_inbound_messages_from_idx").on(table.fromPhone, table.receivedAt),
    index("whatsapp_inbound_messages_lead_idx").on(table.leadId),
  ],
);

export const leadHistoryKinds = ["whatsapp-inbound", "status", "note", "assignment", "duplicate"] as const;

/**
 * What happened with a lead after it came in: messages the person sent by WhatsApp, status changes, staff notes,
 * assignments and repeated requests (issue 13). `details` holds the kind's facts (from/to/reason, the assignee,
 * what a duplicate asked); `actor_id` is the staff member, null for the system or the person.
 */
export const leadHistory = pgTable(
  "lead_history",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    leadId: uuid("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    text: text("text").notNull(),
    /** The inbound message this entry records (kind `whatsapp-inbound`). */
    inboundMessageId: uuid("inbound_message_id").references(() => whatsAppInboundMessages.id, {
      onDelete: "cascade",
    }),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    /** A merged duplicate's form submission id: the same submission sent twice is merged once. */
    submissionId: uuid("submission_id").unique(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("lead_history_lead_at_idx").on(table.leadId, table.at),
    check("lead_history_kind_values", sql`${table.kind} in (${quotedList(leadHistoryKinds)})`),
  ],
);

/**
 * Per staff member: away (no new leads are assigned to them) and when they were last given a lead, the round-robin
 * turn (issue 13). A row is created the first time an asesor is considered.
 */
export const staffAvailability = pgTable("staff_availability", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  away: boolean("away").notNull().default(false),
  lastAssignedAt: timestamp("last_assigned_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------------------------
// The RUT portal (issue 11, DESIGN decision 11): an account bound to one Dentalink patient by a one-time code sent
// to the contact on file at the clinic, and the append-only register of every read of a clinical record.

/** One account per Dentalink patient and one patient per account. */
export const clinicalRecordBindings = pgTable(
  "clinical_record_bindings",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    dentalinkPatientId: text("dentalink_patient_id").notNull(),
    /** Canonical, `12345678-5`. */
    rut: text("rut").notNull(),
    boundAt: timestamp("bound_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set by 'Cerrar Sesión' in Mi Ficha: the record stays closed for the account until its password or a new code
     * reopens it (issue 19 item 14); null while open.
     */
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("clinical_record_bindings_patient_idx").on(table.dentalinkPatientId)],
);

/**
 * A one-time code to bind an account to the patient of a RUT: only its hash is kept. A RUT the clinic does not know
 * gets a row too (without a patient and with a code nobody receives), so both answers do the same work.
 */
export const clinicalRecordCodes = pgTable(
  "clinical_record_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rut: text("rut").notNull(),
    /** Null when no patient has this RUT: such a code can never be right. */
    dentalinkPatientId: text("dentalink_patient_id"),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("clinical_record_codes_user_created_idx").on(table.userId, table.createdAt),
    check("clinical_record_codes_attempts", sql`${table.attempts} >= 0`),
  ],
);

/**
 * Every read of a clinical record: the patient lookup, each list, each file (Ley 20.584 art. 13, DESIGN §6). The
 * database refuses UPDATE, DELETE and TRUNCATE on it (trigger in the `clinical_record` migration; drizzle-kit does not model triggers). The actor is a plain id, not a
 * foreign key: deleting an account must not touch the register (a cascade would be an UPDATE or DELETE here).
 */
/**
 * What a register row records: `codigo`, the lookup behind a code request (it opens nothing); `vinculacion`, an
 * account bound to the record; `paciente`, an opening of the record; then each list and each file read.
 */
export const clinicalRecordResources = [
  "codigo",
  "vinculacion",
  "paciente",
  "citas",
  "pagos",
  "tratamientos",
  "documentos",
  "radiografias",
  "archivo",
] as const;

export const clinicalRecordAccess = pgTable(
  "clinical_record_access",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorId: text("actor_id").notNull(),
    /** The actor's name at the time of the read (what the patient sees). */
    actorName: text("actor_name").notNull(),
    /** The role the read was made with: paciente, dentista or admin. */
    actorRole: text("actor_role").notNull(),
    rut: text("rut").notNull(),
    dentalinkPatientId: text("dentalink_patient_id"),
    resource: text("resource").notNull(),
    resourceId: text("resource_id"),
    /** Required for staff reads. */
    reason: text("reason"),
    outcome: text("outcome").notNull(),
    ip: text("ip").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("clinical_record_access_rut_created_idx").on(table.rut, table.createdAt),
    index("clinical_record_access_created_idx").on(table.createdAt),
    check(
      "clinical_record_access_resource_values",
      sql`${table.resource} in (${quotedList(clinicalRecordResources)})`,
    ),
    check("clinical_record_access_outcome_values", sql`${table.outcome} in ('ok', 'not_found', 'error')`),
    check(
      "clinical_record_access_staff_reason",
      sql`${table.actorRole} = 'paciente' or (${table.reason} is not null and char_length(${table.reason}) >= 10)`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Guest chat platform (issue 12, DESIGN decisions 14, 17, 18).

export const chatRoomStatuses = ["bot", "pending_human", "open", "resolved"] as const;
export const chatAuthors = ["guest", "agent", "staff", "system"] as const;
export const chatMessageKinds = ["message", "note"] as const;

/**
 * A chat guest (spec 001 §3). A signed-in user's guest has `external_id` = the user id; an anonymous guest is bound
 * to one browser by the SHA-256 of a random secret kept in an httpOnly cookie. Knowing the id proves nothing.
 */
export const chatGuests = pgTable(
  "chat_guests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: text("account_id").notNull(),
    externalId: text("external_id").references(() => users.id, { onDelete: "cascade" }),
    browserKeyHash: text("browser_key_hash"),
    firstName: text("first_name").notNull().default("Anonymous"),
    lastName: text("last_name").notNull().default("Visitor"),
    email: text("email"),
    phone: text("phone"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("chat_guests_account_external_idx").on(table.accountId, table.externalId),
    check("chat_guests_owner", sql`${table.externalId} is not null or ${table.browserKeyHash} is not null`),
  ],
);

/** A conversation between one guest and the agent (and staff after a handoff). */
export const chatRooms = pgTable(
  "chat_rooms",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: text("account_id").notNull(),
    guestId: uuid("guest_id")
      .notNull()
      .references(() => chatGuests.id, { onDelete: "cascade" }),
    agentId: text("agent_id").notNull(),
    status: text("status").notNull().default("bot"),
    handoffReason: text("handoff_reason"),
    handoffSummary: text("handoff_summary"),
    handoffAt: timestamp("handoff_at", { withTimezone: true }),
    /** Set by the agent's own emergency or distress handoff, never by what a guest sends: listed first. */
    handoffUrgent: boolean("handoff_urgent").notNull().default(false),
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** The AI-assistance notice the guest accepted (Ley 21.719): its version and when. */
    aiConsentVersion: text("ai_consent_version"),
    aiConsentAt: timestamp("ai_consent_at", { withTimezone: true }),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (table) => [
    index("chat_rooms_guest_idx").on(table.guestId),
    index("chat_rooms_status_activity_idx").on(table.status, table.lastMessageAt),
    check("chat_rooms_status_values", sql`${table.status} in (${quotedList(chatRoomStatuses)})`),
  ],
);

/**
 * The room's log, which is also the event stream: `seq` is the SSE event id (`Last-Event-ID` resumes after it).
 * `id` is supplied by the client, so a retried send never stores the message twice.
 */
export const chatMessages = pgTable(
  "chat_messages",
  {
    seq: integer("seq").primaryKey().generatedAlwaysAsIdentity(),
    id: uuid("id").notNull().unique(),
    roomId: uuid("room_id")
      .notNull()
      .references(() => chatRooms.id, { onDelete: "cascade" }),
    author: text("author").notNull(),
    staffUserId: text("staff_user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind").notNull().default("message"),
    content: text("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("chat_messages_room_seq_idx").on(table.roomId, table.seq),
    // The Overview's Bot IA line: the agent's last reply (issue 13).
    index("chat_messages_author_seq_idx").on(table.author, table.seq),
    check("chat_messages_author_values", sql`${table.author} in (${quotedList(chatAuthors)})`),
    check("chat_messages_kind_values", sql`${table.kind} in (${quotedList(chatMessageKinds)})`),
    check("chat_messages_content_length", sql`char_length(${table.content}) between 1 and 4000`),
  ],
);

/**
 * Guest refresh tokens (only their SHA-256). Each use rotates the token within its family; presenting a token that
 * was already used revokes the whole family (the copy in an attacker's hands dies with the legitimate one). A
 * signed-in person's family is bound to the session it was issued under (issue 19, ADR 032): it dies with it.
 */
export const chatRefreshTokens = pgTable(
  "chat_refresh_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    familyId: uuid("family_id").notNull(),
    guestId: uuid("guest_id")
      .notNull()
      .references(() => chatGuests.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The Better Auth session of a signed-in guest's login; null for an anonymous guest. */
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("chat_refresh_tokens_family_idx").on(table.familyId),
    index("chat_refresh_tokens_session_idx").on(table.sessionId),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Analytics (issue 13, DESIGN decision 9).

/** Each staff user's settings of the Analytics tab ('Configurar Analytics'); validated by zod on read and write. */
export const analyticsSettings = pgTable("analytics_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  settings: jsonb("settings").$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
