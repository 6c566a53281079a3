import { data } from "react-router";
import type { Route } from "./+types/data-export-download";
import { getDb } from "~/db/client.server";
import { downloadExport } from "~/features/privacy/data-export-service.server";
import { isAppError } from "~/lib/base/errors";
import { clientIp } from "~/lib/client-ip.server";
import { requireUser } from "~/lib/guards.server";

/**
 * GET /mis-datos/exportaciones/:exportId/descarga — the ZIP of one of the session's own exports (ADR 037), audited.
 * Another person's export is a 404; an expired one says so (410), one still being built says so (409).
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  try {
    const result = await downloadExport(await getDb(), user.id, args.params.exportId, {
      roles: user.roles,
      ip: clientIp(args.request),
    });
    if (result.kind === "unavailable") throw data({ message: result.message }, { status: result.status });
    return new Response(new Uint8Array(result.body), {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${result.fileName}"`,
        "Content-Length": String(result.body.byteLength),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
