import type { Database } from "~/db/client.server";
import type { DentalinkDocument } from "~/integrations/dentalink/dentalink-mapping";
import { isIntegrationError } from "~/integrations/http.server";
import { AppError } from "~/lib/base/errors";
import { dentalinkReader } from "./dentalink-reader.server";
import {
  staffEntry,
  patientEntry,
  staffRole,
  type ReadContext,
  type RecordReader,
} from "./record-actor.server";
import { findBinding, latestStaffLookup, recordAccess, type NewAccessRow } from "./record-repository.server";
import { upstreamMessage } from "./record-upstream-error.server";

/** A record's files (documents, X-rays), streamed through the server: each read is registered. */

/** A staff member's reasoned lookup lets them open that patient's files for this long. */
export const STAFF_FILE_GRANT_MS = 30 * 60_000;

export interface RecordFileDownload {
  name: string;
  contentType: string;
  body: ReadableStream<Uint8Array> | Uint8Array;
  size: number | null;
}

const FILE_NOT_FOUND = "No encontramos ese archivo.";

async function downloadOwnFile(
  db: Database,
  target: { patientId: string },
  fileId: string,
  entry: (row: Pick<NewAccessRow, "resource" | "outcome" | "resourceId">) => NewAccessRow,
): Promise<RecordFileDownload> {
  const { client, files } = dentalinkReader();
  let list: { documents: DentalinkDocument[]; xrays: DentalinkDocument[] };
  try {
    list = await client.listPatientFiles(target.patientId);
  } catch (error) {
    await recordAccess(db, [entry({ resource: "archivo", outcome: "error", resourceId: fileId })]);
    throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
  }
  // Only a file of this patient's own list: an id from the URL never reaches another patient's file.
  const file = [...list.documents, ...list.xrays].find((item) => item.id === fileId);
  if (!file?.url) {
    await recordAccess(db, [entry({ resource: "archivo", outcome: "not_found", resourceId: fileId })]);
    throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  }
  try {
    const body = await files.fetchFile(file.url);
    await recordAccess(db, [entry({ resource: "archivo", outcome: "ok", resourceId: fileId })]);
    return { name: file.name, ...body };
  } catch (error) {
    await recordAccess(db, [entry({ resource: "archivo", outcome: "error", resourceId: fileId })]);
    if (isIntegrationError(error) && error.status === 404) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
    throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
  }
}

/** A file of the account's bound patient; NOT_FOUND without a binding or for anyone else's file. */
export async function patientFile(
  db: Database,
  reader: RecordReader,
  fileId: string,
  context: ReadContext,
): Promise<RecordFileDownload> {
  const binding = reader.emailVerified ? await findBinding(db, reader.id) : undefined;
  if (!binding || binding.closedAt !== null) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  return downloadOwnFile(db, { patientId: binding.dentalinkPatientId }, fileId, (row) =>
    patientEntry(reader, context, {
      ...row,
      rut: binding.rut,
      dentalinkPatientId: binding.dentalinkPatientId,
    }),
  );
}

/**
 * A file for staff: only of a RUT they looked up with a reason in the last 30 minutes (their register row is the
 * grant, and its reason is recorded again with the file read).
 */
export async function staffFile(
  db: Database,
  reader: RecordReader,
  input: { rut: string; fileId: string },
  context: ReadContext,
): Promise<RecordFileDownload> {
  const role = staffRole(reader);
  const now = context.now ?? new Date();
  const grant = await latestStaffLookup(db, {
    actorId: reader.id,
    rut: input.rut,
    since: new Date(now.getTime() - STAFF_FILE_GRANT_MS),
  });
  if (!grant?.dentalinkPatientId || !grant.reason) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  const patientId = grant.dentalinkPatientId;
  const reason = grant.reason;
  return downloadOwnFile(db, { patientId }, input.fileId, (row) =>
    staffEntry(reader, role, context, { rut: input.rut, dentalinkPatientId: patientId, reason, ...row }),
  );
}
