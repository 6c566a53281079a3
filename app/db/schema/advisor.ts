import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/** The patient portal's virtual-advisor conversation, kept per user. */
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
