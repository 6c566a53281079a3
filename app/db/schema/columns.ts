import { sql } from "drizzle-orm";
import { timestamp } from "drizzle-orm/pg-core";

/** `'a', 'b'` for a check constraint; only for lists defined in code, never for input. */
export const quotedList = (values: readonly string[]) =>
  sql.raw(values.map((value) => `'${value}'`).join(", "));

export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};
