import { z } from "zod";

/** spec 001 §3 and §7 "Guest chat platform": the request bodies, validated before anything else. */
export const MAX_CHAT_MESSAGE_LENGTH = 4000;
export const AI_NOTICE_VERSION = "2026-11-1";

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

/** Text only (issue 12): no attachments, no markup types; what people write is always shown as text. */
export const sendMessageSchema = z.strictObject({
  id: z.uuid(),
  type: z.literal("text").optional(),
  content: z.string().trim().min(1).max(MAX_CHAT_MESSAGE_LENGTH),
});

export const consentSchema = z.strictObject({
  version: z.literal(AI_NOTICE_VERSION),
  accepted: z.literal(true),
});

export const handoffSchema = z.strictObject({
  reason: z.string().trim().max(500).optional(),
});
