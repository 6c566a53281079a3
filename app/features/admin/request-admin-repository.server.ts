import { desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { callbackRequests } from "~/db/schema";
import type { RequestKind, RequestStatus } from "./admin-options";

const tables = { callback: callbackRequests } as const;

/** Callback requests (/devolver-llamada), newest first, optionally of one status. */
export async function listCallbackRequests(db: Database, options: { status?: RequestStatus; limit: number }) {
  return db
    .select({
      id: callbackRequests.id,
      name: callbackRequests.name,
      phone: callbackRequests.phone,
      email: callbackRequests.email,
      preferredTime: callbackRequests.preferredTime,
      reason: callbackRequests.reason,
      source: callbackRequests.source,
      status: callbackRequests.status,
      createdAt: callbackRequests.createdAt,
    })
    .from(callbackRequests)
    .where(options.status ? eq(callbackRequests.status, options.status) : undefined)
    .orderBy(desc(callbackRequests.createdAt), desc(callbackRequests.id))
    .limit(options.limit);
}

/** The current status of one request, locked until the transaction ends. */
export async function lockRequestStatus(
  db: Database,
  kind: RequestKind,
  requestId: string,
): Promise<string | undefined> {
  const table = tables[kind];
  const [row] = await db
    .select({ status: table.status })
    .from(table)
    .where(eq(table.id, requestId))
    .for("update");
  return row?.status;
}

export async function setRequestStatus(
  db: Database,
  kind: RequestKind,
  requestId: string,
  status: RequestStatus,
): Promise<void> {
  const table = tables[kind];
  await db.update(table).set({ status, updatedAt: new Date() }).where(eq(table.id, requestId));
}
