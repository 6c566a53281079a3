import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { quotedList } from "./columns";

/**
 * The RUT portal (ADR 021): an account bound to one Dentalink patient by a one-time code sent to the contact on file
 * at the clinic, and the append-only register of every read of a clinical record.
 */

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
     * reopens it (ADR 029); null while open.
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

/**
 * Every read of a clinical record: the patient lookup, each list, each file (Ley 20.584 art. 13, DESIGN §6). The
 * database refuses UPDATE, DELETE and TRUNCATE on it (trigger in the `clinical_record` migration; drizzle-kit does
 * not model triggers). The actor is a plain id, not a foreign key: deleting an account must not touch the register
 * (a cascade would be an UPDATE or DELETE here).
 */
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
