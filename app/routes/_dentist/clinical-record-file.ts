import { data } from "react-router";
import type { Route } from "./+types/clinical-record-file";
import { getDb } from "~/db/client.server";
import { CLINICAL_READER_ROLES } from "~/domain/roles";
import { fileResponse } from "~/features/clinical-record/record-file-response.server";
import { staffFile } from "~/features/clinical-record/record-files.server";
import { validateRut } from "~/domain/rut";
import { clientIp, rateLimitIp } from "~/lib/client-ip.server";
import { isAppError } from "~/lib/base/errors";
import { requireRole } from "~/lib/guards.server";

/**
 * GET /dentista/ficha/archivo/:id?rut=… — a file of a patient this staff member looked up with a reason in the
 * last 30 minutes (the register row is the grant); 404 otherwise.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, CLINICAL_READER_ROLES);
  const url = new URL(args.request.url);
  const rut = validateRut(url.searchParams.get("rut") ?? "");
  if (!rut.ok) throw data({ message: "No encontramos ese archivo." }, { status: 404 });
  try {
    const file = await staffFile(
      await getDb(),
      user,
      { rut: rut.rut, fileId: args.params.id },
      { ip: clientIp(args.request), rateIp: rateLimitIp(args.request) },
    );
    return fileResponse(file, url.searchParams.has("descargar"));
  } catch (error) {
    if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
