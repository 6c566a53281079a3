import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { appointmentStatuses } from "~/domain/appointment-status";
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
  },
  (table) => [
    index("outbox_due_idx").on(table.status, table.nextAttemptAt),
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
    check("chat_messages_author_values", sql`${table.author} in (${quotedList(chatAuthors)})`),
    check("chat_messages_kind_values", sql`${table.kind} in (${quotedList(chatMessageKinds)})`),
    check("chat_messages_content_length", sql`char_length(${table.content}) between 1 and 4000`),
  ],
);

/**
 * Guest refresh tokens (only their SHA-256). Each use rotates the token within its family; presenting a token that
 * was already used revokes the whole family (the copy in an attacker's hands dies with the legitimate one).
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
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("chat_refresh_tokens_family_idx").on(table.familyId)],
);
