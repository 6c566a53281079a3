import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/**
 * The clinic's own settings, one row per subject (the reminder sequence, the no-show rule): a JSON value parsed by
 * the owning feature's zod schema, with who changed it last. Each change is also in the audit log.
 */
export const clinicSettings = pgTable("clinic_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<Record<string, unknown>>().notNull(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
