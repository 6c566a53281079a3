import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { hotStatement } from "~/db/pglite-statements.server";
import { advisorMessages } from "~/db/schema";

type Executor = Pick<Database, "select" | "insert" | "execute">;

export type AdvisorMessageRow = Awaited<ReturnType<typeof latestMessages>>[number];
export type NewAdvisorMessage = typeof advisorMessages.$inferInsert;

const columns = {
  id: advisorMessages.id,
  role: advisorMessages.role,
  content: advisorMessages.content,
  type: advisorMessages.type,
  createdAt: advisorMessages.createdAt,
};

// A question and its answer may share an instant; the question comes first.
const roleOrder = sql<number>`case ${advisorMessages.role} when 'assistant' then 1 else 0 end`;

/** The newest `limit` messages of one user's conversation, oldest first. */
export async function latestMessages(db: Pick<Database, "select">, userId: string, limit: number) {
  const rows = await newestMessages(db, { userId, limit });
  return rows.toReversed();
}

/** A hot statement (ADR 053): the advisor page reads it on every visit. */
const newestMessages = hotStatement("advisor_latest_messages", (db) =>
  db
    .select(columns)
    .from(advisorMessages)
    .where(eq(advisorMessages.userId, sql.placeholder("userId")))
    .orderBy(desc(advisorMessages.createdAt), desc(roleOrder))
    .limit(sql.placeholder("limit")),
);

export async function hasMessages(db: Pick<Database, "select">, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: advisorMessages.id })
    .from(advisorMessages)
    .where(eq(advisorMessages.userId, userId))
    .limit(1);
  return Boolean(row);
}

export async function insertMessages(db: Executor, rows: NewAdvisorMessage[]) {
  return db.insert(advisorMessages).values(rows).returning(columns);
}

/** Serialises writes to one user's conversation (two tabs, a double click) until the transaction ends. */
export async function lockConversation(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`advisor:${userId}`}))`);
}
