import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { whatsAppMessageStatuses } from "~/domain/whatsapp-message-status";
import { users } from "./accounts";
import { appointments } from "./appointments";
import { quotedList, timestamps } from "./columns";
import { leads } from "./leads";

/**
 * WhatsApp: outbound messages and their fate, the contacts' 24-hour windows, inbound messages (ADR 020, DESIGN
 * decision 13).
 */

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
