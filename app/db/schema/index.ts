/**
 * The database schema, one module per domain; `~/db/schema` and drizzle-kit (drizzle.config.ts) read it from here.
 * `columns.ts` holds shared column helpers and is not re-exported.
 */
export * from "./accounts";
export * from "./advisor";
export * from "./analytics";
export * from "./appointments";
export * from "./audit-log";
export * from "./chat";
export * from "./clinical-record";
export * from "./crm";
export * from "./dentalink";
export * from "./leads";
export * from "./outbox";
export * from "./public-requests";
export * from "./rate-limits";
export * from "./reminders";
export * from "./whatsapp";
export * from "./payments";
export * from "./privacy";
export * from "./settings";
export * from "./waitlist";
export * from "./forms";
