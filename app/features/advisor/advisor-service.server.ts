import type { ClinicFacts } from "~/config/clinic";
import type { Database } from "~/db/client.server";
import {
  advisorReply,
  advisorWelcome,
  type AdvisorFacts,
  type AdvisorReplyType,
} from "~/domain/advisor-replies";
import { formatChileanPhone, formatClinicTime } from "~/domain/format";
import { AppError } from "~/lib/base/errors";
import { consumeRate } from "~/lib/rate-limit.server";
import { ADVISOR_RATE_LIMITED_ERROR, type AdvisorMessageDto, type AdvisorRole } from "./advisor-schema";
import {
  hasMessages,
  insertMessages,
  latestMessages,
  lockConversation,
  type AdvisorMessageRow,
} from "./advisor-repository.server";

/** How much of the conversation the page shows. */
export const ADVISOR_HISTORY_LIMIT = 100;

/** Messages per user and minute; a person typing never gets near it, a script does. */
const SEND_RULE = { window: 60, max: 20 };

/** The clinic's facts as the advisor quotes them (ADR 009: one set of hours). */
export function advisorFacts(clinic: ClinicFacts): AdvisorFacts {
  return {
    clinicName: clinic.name,
    phone: formatChileanPhone(clinic.phone),
    whatsapp: formatChileanPhone(clinic.mobile),
    email: clinic.email,
    address: clinic.address,
    hours: clinic.hoursLong,
    saturday: clinic.saturday,
    website: clinic.siteUrl,
    emergencyNumber: clinic.emergencyNumber,
  };
}

export interface AdvisorUser {
  id: string;
  firstName: string;
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Inside the conversation's lock: a conversation always opens with the welcome message. */
async function ensureWelcome(tx: Transaction, user: AdvisorUser, now: Date): Promise<void> {
  if (await hasMessages(tx, user.id)) return;
  const welcome = advisorWelcome(user.firstName.trim() || "paciente");
  await insertMessages(tx, [
    { userId: user.id, role: "assistant", content: welcome.content, type: welcome.type, createdAt: now },
  ]);
}

function toDto(row: AdvisorMessageRow): AdvisorMessageDto {
  return {
    id: row.id,
    role: row.role === "user" ? "user" : "assistant",
    content: row.content,
    type: row.type as AdvisorReplyType,
    time: formatClinicTime(row.createdAt),
  };
}

/**
 * The user's conversation, newest 100 oldest first. A first visit stores the welcome message, so it keeps its
 * time and stays in place after a reload (the chat starts with a welcome message).
 */
export async function loadConversation(
  db: Database,
  user: AdvisorUser,
  now = new Date(),
): Promise<AdvisorMessageDto[]> {
  // One query on every visit; only the very first one (no messages yet) writes the welcome and reads again.
  const rows = await latestMessages(db, user.id, ADVISOR_HISTORY_LIMIT);
  if (rows.length > 0) return rows.map(toDto);
  await db.transaction(async (tx) => {
    await lockConversation(tx, user.id);
    await ensureWelcome(tx, user, now);
  });
  return (await latestMessages(db, user.id, ADVISOR_HISTORY_LIMIT)).map(toDto);
}

/**
 * Stores the user's message and the advisor's reply in one transaction and returns both. `content` has been
 * validated (advisorMessageSchema). Throws AppError RATE_LIMITED when the user sends too fast.
 */
export async function sendAdvisorMessage(
  db: Database,
  user: AdvisorUser,
  content: string,
  clinic: ClinicFacts,
  now = new Date(),
): Promise<AdvisorMessageDto[]> {
  const userId = user.id;
  const rate = await consumeRate(db, `advisor:user:${userId}`, SEND_RULE, now);
  if (!rate.allowed) throw new AppError("RATE_LIMITED", ADVISOR_RATE_LIMITED_ERROR);
  const reply = advisorReply(content, advisorFacts(clinic));
  // The welcome (if this is the first message) comes first and the reply a millisecond after the question, so the
  // order never depends on the tie-break alone.
  const askedAt = new Date(now.getTime() + 1);
  const replyAt = new Date(now.getTime() + 2);
  const rows = await db.transaction(async (tx) => {
    await lockConversation(tx, userId);
    await ensureWelcome(tx, user, now);
    return insertMessages(tx, [
      { userId, role: "user" satisfies AdvisorRole, content, type: "general", createdAt: askedAt },
      {
        userId,
        role: "assistant" satisfies AdvisorRole,
        content: reply.content,
        type: reply.type,
        createdAt: replyAt,
      },
    ]);
  });
  return rows.toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map(toDto);
}
