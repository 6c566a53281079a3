import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { callbackRequests, dataRightsRequests } from "~/db/schema";
import { logger } from "~/lib/base/logger.server";
import { chargePublicWrite, type PublicWriter } from "~/lib/public-write-limit.server";
import type { CallbackRequest, DataRightsRequest } from "./request-schemas";

/**
 * Stores a data-subject request once per submission id; resolves after the commit. Only a new request is charged
 * to the writer's hourly budget; past it, `PublicWriteRefused` is thrown and nothing is stored.
 */
export async function recordDataRightsRequest(
  db: Database,
  input: DataRightsRequest,
  writer: PublicWriter,
): Promise<{ id: string }> {
  const submissionId = input.submissionId ?? randomUUID();
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(dataRightsRequests)
      .values({
        submissionId,
        requestType: input.requestType,
        name: input.name,
        email: input.email,
        phone: input.phone,
        rut: input.rut,
        details: input.details,
      })
      .onConflictDoNothing({ target: dataRightsRequests.submissionId })
      .returning({ id: dataRightsRequests.id });
    if (row) await chargePublicWrite(tx, "dataRights", writer);
    return row;
  });
  if (created) {
    logger.info({ requestId: created.id, type: input.requestType }, "data-rights request recorded");
    return created;
  }
  const [existing] = await db
    .select({ id: dataRightsRequests.id })
    .from(dataRightsRequests)
    .where(eq(dataRightsRequests.submissionId, submissionId));
  if (!existing) throw new Error("data-rights request vanished after a conflict");
  return existing;
}

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
