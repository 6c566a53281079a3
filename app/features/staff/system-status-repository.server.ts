import { and, desc, eq, gte, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { chatMessages, outbox, payments, whatsAppMessages } from "~/db/schema";
import type { AgentFacts, OutboxFacts, WebpayFacts, WhatsAppFacts } from "./system-status";
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

/**
 * Webpay attempts with an error written since `since`, and attempts still "created" from before it (the reconciliation
 * settles those within minutes; partial index on form_expires_at where created).
 */
export async function webpayTroubleFacts(
  db: Database,
  since: Date,
): Promise<Pick<WebpayFacts, "recentErrors" | "staleOpen">> {
  const [row] = await db
    .select({
      recentErrors:
        sql<number>`count(*) filter (where ${payments.lastError} is not null and ${payments.updatedAt} >= ${since.toISOString()})`.mapWith(
          Number,
        ),
      staleOpen:
        sql<number>`count(*) filter (where ${payments.status} = 'created' and ${payments.createdAt} < ${since.toISOString()})`.mapWith(
          Number,
        ),
    })
    .from(payments)
    .where(or(gte(payments.updatedAt, since), eq(payments.status, "created")));
  return { recentErrors: row?.recentErrors ?? 0, staleOpen: row?.staleOpen ?? 0 };
}
