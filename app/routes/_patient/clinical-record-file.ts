import { data } from "react-router";
import type { Route } from "./+types/clinical-record-file";
import { getDb } from "~/db/client.server";
import { fileResponse } from "~/features/clinical-record/record-file-response.server";
import { patientFile } from "~/features/clinical-record/record-files.server";
import { clientIp, rateLimitIp } from "~/lib/client-ip.server";
import { isAppError } from "~/lib/base/errors";
import { requireUser } from "~/lib/guards.server";

/**
 * GET /paciente/ficha/archivo/:id — a document or x-ray of the account's bound patient, streamed through our
 * server (ADR 021): 404 without a binding or for a file that is not in the bound patient's own list.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  try {
    const file = await patientFile(await getDb(), user, args.params.id, {
      ip: clientIp(args.request),
      rateIp: rateLimitIp(args.request),
    });
    return fileResponse(file, new URL(args.request.url).searchParams.has("descargar"));
  } catch (error) {
    if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
