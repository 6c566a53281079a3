import { data, redirect } from "react-router";
import type { Route } from "./+types/data-exports";
import { getDb } from "~/db/client.server";
import { myDataPathFor } from "~/features/privacy/data-export-paths";
import { requestExportSchema } from "~/features/privacy/data-export-schema";
import { requestExport } from "~/features/privacy/data-export-service.server";
import { actionFailure, INVALID_REQUEST_MESSAGE } from "~/lib/base/action-result";
import { isAppError } from "~/lib/base/errors";
import { clientIp } from "~/lib/client-ip.server";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

/**
 * POST /mis-datos/exportaciones — 'Descargar mis datos' (ADR 037): queues an export of the session's own data (or
 * finds the one already being built) and goes back to the Mis Datos page it came from, which shows the progress. A
 * plain form post, so it works without JavaScript. Past the daily limit the page shows why.
 */
export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const form = requestExportSchema.safeParse(await readForm(args.request));
  if (!form.success) return data(actionFailure("VALIDATION", INVALID_REQUEST_MESSAGE), { status: 400 });
  const back = form.data.returnTo ?? myDataPathFor(user.roles);
  try {
    await requestExport(await getDb(), user.id, { roles: user.roles, ip: clientIp(args.request) });
  } catch (error) {
    // The page states the limit itself (its loader knows it); anything else is the error boundary's.
    if (!isAppError(error) || error.code !== "RATE_LIMITED") throw error;
  }
  return redirect(back, 303);
}
