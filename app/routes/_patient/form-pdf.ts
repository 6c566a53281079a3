import { data } from "react-router";
import type { Route } from "./+types/form-pdf";
import { getDb } from "~/db/client.server";
import { patientFormPdf } from "~/features/forms/form-service.server";
import { isAppError } from "~/lib/base/errors";
import { requireUser } from "~/lib/guards.server";

/** GET /paciente/formularios/envios/:submissionId/pdf — the PDF of one of the session's own submissions, else 404. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  try {
    const file = await patientFormPdf(await getDb(), user.id, args.params.submissionId);
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
