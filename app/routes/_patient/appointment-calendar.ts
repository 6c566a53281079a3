import { data } from "react-router";
import type { Route } from "./+types/appointment-calendar";
import { getDb } from "~/db/client.server";
import { ownAppointmentIcs } from "~/features/appointments/appointment-calendar.server";
import { isAppError } from "~/lib/base/errors";
import { requireUser } from "~/lib/guards.server";

/**
 * GET /paciente/citas/:appointmentId/calendario.ics — 'Agregar al calendario' (ADR 039): the .ics of one of the
 * session's own scheduled or confirmed appointments; another patient's appointment is a 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  try {
    const { fileName, body } = await ownAppointmentIcs(await getDb(), user.id, args.params.appointmentId);
    return new Response(body, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": `attachment; filename="${fileName}"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
