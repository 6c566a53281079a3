import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { callbackRequests } from "~/db/schema";
import { logger } from "~/lib/base/logger.server";
import { chargePublicWrite, type PublicWriter } from "~/lib/public-write-limit.server";
import type { CallbackRequest } from "./request-schemas";

/**
 * Stores a callback request once per submission id; resolves after the commit. Only a new request is charged to
 * the writer's hourly budget; past it, `PublicWriteRefused` is thrown and nothing is stored.
 */
export async function recordCallbackRequest(
  db: Database,
  input: CallbackRequest,
  writer: PublicWriter,
): Promise<{ id: string }> {
  const submissionId = input.submissionId ?? randomUUID();
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(callbackRequests)
      .values({
        submissionId,
        name: input.name,
        phone: input.phone,
        email: input.email,
        preferredTime: input.preferredTime,
        reason: input.reason,
      })
      .onConflictDoNothing({ target: callbackRequests.submissionId })
      .returning({ id: callbackRequests.id });
    if (row) await chargePublicWrite(tx, "callback", writer);
    return row;
  });
  if (created) {
    logger.info({ requestId: created.id }, "callback request recorded");
    return created;
  }
  const [existing] = await db
    .select({ id: callbackRequests.id })
    .from(callbackRequests)
    .where(eq(callbackRequests.submissionId, submissionId));
  if (!existing) throw new Error("callback request vanished after a conflict");
  return existing;
}
