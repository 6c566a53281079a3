import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { professionalTitles } from "~/domain/dentist-name";
import { quotedList, timestamps } from "./columns";

/**
 * Accounts: Better Auth's models (user, session, account, verification, twoFactor), the sign-in step-up, and roles.
 * The JS keys are Better Auth's field names; `user.name` is mapped to first_name (DESIGN decision 2).
 */

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
    /**
     * A dentist's title, "dr" or "dra" (`domain/dentist-name.ts`); null names them without one. Set by an
     * administrator (issue 24).
     */
    professionalTitle: text("professional_title"),
    /**
     * When the user agreed to WhatsApp messages about their appointments (reminders go only to them); null = not
     * agreed.
     */
    whatsappOptInAt: timestamp("whatsapp_opt_in_at", { withTimezone: true }),
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    /**
     * Set when an erasure request was executed (Ley 21.719 art. 7, ADR 037): the account can no longer sign in, its
     * contact data is gone, and what is kept for the law (clinical copies, payments) is blocked.
     */
    erasedAt: timestamp("erased_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index("users_last_name_idx").on(table.lastName),
    check(
      "users_professional_title_values",
      sql`${table.professionalTitle} in (${quotedList(professionalTitles)})`,
    ),
  ],
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
 * The sign-in step-up past the per-account failure limit (ADR 031): after the right password, a one-time code
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

/** The named roles; `user_roles` grants them to users (one user may hold several, each switchable off). */
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
