import { and, desc, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { chatMessages, outbox, whatsAppMessages } from "~/db/schema";
import type { AgentFacts, OutboxFacts, WhatsAppFacts } from "./system-status";
import { WHATSAPP_RECENT_WINDOW } from "./system-status";

/** The newest WhatsApp outcomes (created_at index) and the outbox items retrying after a failed attempt. */
const latest = (dates: Array<Date | null>) =>
  dates.reduce<Date | null>((max, at) => (at && (!max || at > max) ? at : max), null);

/** `outboxKind`: the outbox kind of WhatsApp messages (the messaging feature's constant). */
export async function whatsAppFacts(
  db: Database,
  testMode: boolean,
  outboxKind: string,
): Promise<WhatsAppFacts> {
  const [recent, [retrying]] = await Promise.all([
    db
      .select({
        status: whatsAppMessages.status,
        acceptedAt: whatsAppMessages.acceptedAt,
        failedAt: whatsAppMessages.failedAt,
      })
      .from(whatsAppMessages)
      .where(ne(whatsAppMessages.status, "queued"))
      .orderBy(desc(whatsAppMessages.createdAt))
      .limit(WHATSAPP_RECENT_WINDOW),
    db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), eq(outbox.kind, outboxKind), isNotNull(outbox.lastError))),
  ]);
  const failed = recent.filter((row) => row.status === "failed");
  const accepted = recent.filter((row) => row.status !== "failed");
  return {
    testMode,
    successes: accepted.length,
    failures: failed.length,
    lastSuccessAt: latest(accepted.map((row) => row.acceptedAt)),
    lastFailureAt: latest(failed.map((row) => row.failedAt)),
    retrying: retrying?.count ?? 0,
  };
}

/** The chat agent's last reply (index on author, seq). */
export async function lastAgentReplyAt(db: Database): Promise<AgentFacts["lastReplyAt"]> {
  const [row] = await db
    .select({ createdAt: chatMessages.createdAt })
    .from(chatMessages)
    .where(eq(chatMessages.author, "agent"))
    .orderBy(desc(chatMessages.seq))
    .limit(1);
  return row?.createdAt ?? null;
}

/** Pending outbox items and the oldest one's age (partial index on created_at where pending). */
export async function outboxFacts(db: Database): Promise<OutboxFacts> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)`.mapWith(Number),
      oldest: sql<string | null>`min(${outbox.createdAt})`,
    })
    .from(outbox)
    .where(eq(outbox.status, "pending"));
  return {
    pending: row?.pending ?? 0,
    oldestPendingAt: row?.oldest ? new Date(row.oldest) : null,
  };
}
