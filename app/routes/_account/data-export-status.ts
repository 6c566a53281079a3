import type { Route } from "./+types/data-export-status";
import { getDb } from "~/db/client.server";
import { exportStatus } from "~/features/privacy/data-export-service.server";
import { appErrorResponse } from "~/lib/base/errors.server";
import { requireUser } from "~/lib/guards.server";

/**
 * GET /mis-datos/exportaciones/:exportId — the progress of one of the session's own exports, as JSON (the panel
 * polls it). Another person's export answers 404, the same as one that does not exist.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  try {
    const status = await exportStatus(await getDb(), user.id, args.params.exportId);
    return Response.json(status, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return appErrorResponse(error, (appError) => ({ message: appError.message }), {
      "Cache-Control": "private, no-store",
    });
  }
}
