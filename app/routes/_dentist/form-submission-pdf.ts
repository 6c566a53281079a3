import { data } from "react-router";
import type { Route } from "./+types/form-submission-pdf";
import { getDb } from "~/db/client.server";
import { staffFormPdf } from "~/features/forms/form-service.server";
import { clientIp } from "~/lib/client-ip.server";
import { isAppError } from "~/lib/base/errors";
import { requireRole } from "~/lib/guards.server";

/** GET /dentista/formularios/:submissionId/pdf — the signed PDF, with the same rule and audit row as a read. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ["dentista", "admin", "super_admin"]);
  try {
    const file = await staffFormPdf(
      await getDb(),
      { id: user.id, roles: user.roles },
      args.params.submissionId,
      clientIp(args.request),
    );
    return new Response(new Uint8Array(file.pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Content-Length": String(file.pdf.length),
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
