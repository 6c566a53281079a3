import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/** Each staff user's settings of the Analytics tab ('Configurar Analytics'); validated by zod on read and write. */
export const analyticsSettings = pgTable("analytics_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  settings: jsonb("settings").$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
