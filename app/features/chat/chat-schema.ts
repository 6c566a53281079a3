import { z } from "zod";
import { MAX_CHAT_MESSAGE_LENGTH } from "~/domain/chat-limits";
import { CHAT_AI_NOTICE_VERSION, knownConsentVersions } from "~/domain/consent-texts";

/** The AI notice's version, from the consent texts (one place, ADR 037): what the widget posts when accepted. */
export const AI_NOTICE_VERSION = CHAT_AI_NOTICE_VERSION;

/** The guest chat platform's request bodies, validated before anything else. */

const name = z.string().trim().min(1).max(80);
const optionalText = (max: number) => z.string().trim().max(max).nullish();

export const createGuestSchema = z.strictObject({
  account_id: z.string().min(1).max(64),
  external_id: z.string().min(1).max(128).nullish(),
  first_name: name.nullish(),
  last_name: name.nullish(),
  email: z.email().max(254).nullish(),
  phone: optionalText(32),
});

export const updateGuestSchema = z.strictObject({
  account_id: z.string().min(1).max(64).optional(),
  first_name: name.optional(),
  last_name: name.optional(),
  email: z.email().max(254).nullish(),
  phone: optionalText(32),
});

export const createRoomSchema = z.strictObject({
  account_id: z.string().min(1).max(64),
  guest_id: z.uuid(),
  agent_id: z.string().min(1).max(64),
});

export const addMemberSchema = z.strictObject({
  account_id: z.string().min(1).max(64),
  guest_id: z.uuid(),
});

export const refreshSchema = z.strictObject({
  refresh_token: z.string().min(20).max(200),
  jid: z.boolean().optional(),
});

/** Text only: no attachments, no markup types; what people write is always shown as text. */
export const sendMessageSchema = z.strictObject({
  id: z.uuid(),
  type: z.literal("text").optional(),
  content: z.string().trim().min(1).max(MAX_CHAT_MESSAGE_LENGTH),
});

export const consentSchema = z.strictObject({
  // Also the notice's earlier name ("2026-11-1"), which a widget loaded before the ledger still posts.
  version: z.enum(knownConsentVersions("chat_ia") as [string, ...string[]]),
  accepted: z.literal(true),
});

export const handoffSchema = z.strictObject({
  reason: z.string().trim().max(500).optional(),
});

// --- the room page's query options (with the widget's defaults) ----------------------------------------------------

/** A query flag: true/false/1/0; anything else (or nothing) is the default. */
const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"])
    .transform((value) => value === "true" || value === "1")
    .catch(fallback);
/** Only a #rrggbb colour ever reaches a style attribute. */
const hex = (fallback: string) =>
  z
    .string()
    .regex(/^#[0-9a-f]{6}$/i)
    .catch(fallback);
const pixels = (min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).optional().catch(undefined);

export const ROOM_POSITIONS = [
  "bottom-right",
  "bottom-left",
  "bottom-center",
  "top-right",
  "top-left",
  "top-center",
] as const;
export type RoomPosition = (typeof ROOM_POSITIONS)[number];

/**
 * The options the widget passes to the room page. A bad value never breaks the page: it falls back to the spec's
 * default (primary #DC2626, black background with blur, radius 16; position bottom-right, as the product uses).
 */
export const roomQuerySchema = z.object({
  tabs: flag(false),
  members: flag(false),
  settings: flag(false),
  conversation_history: flag(true),
  show_close_button: flag(false),
  show_fullscreen_button: flag(false),
  show_sidebar_button: flag(false),
  theme: z.enum(["light", "dark"]).catch("light"),
  title: z.string().trim().min(1).max(80).catch("Dentista Virtual IA"),
  description: z.string().trim().min(1).max(120).catch("Asistente virtual de la clínica"),
  suggestions: flag(true),
  voice_enabled: flag(false),
  primary_color: hex("#DC2626"),
  background_color: hex("#000000"),
  background_blur: flag(true),
  position: z.enum(ROOM_POSITIONS).catch("bottom-right"),
  widget_width: pixels(200, 1200),
  room_width: pixels(280, 2000),
  room_height: pixels(320, 2000),
  border_radius: z.coerce.number().int().min(0).max(48).catch(16),
  compact: flag(false),
});

export type RoomQuery = z.infer<typeof roomQuerySchema>;

export function parseRoomQuery(query: URLSearchParams): RoomQuery {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(roomQuerySchema.shape)) {
    const value = query.get(key);
    if (value !== null) raw[key] = value;
  }
  return roomQuerySchema.parse(raw);
}
