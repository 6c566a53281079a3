import { data, redirect } from "react-router";
import type { SessionUser } from "~/lib/auth/session.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { clientIp } from "~/lib/client-ip.server";
import { noShowCountText } from "~/domain/no-shows";
import type { Database } from "~/db/client.server";
import { noShowActionSchema } from "./no-show-schema";
import { markNoShow, undoNoShow } from "./no-show-service.server";

/**
 * The 'No asistió' / 'Deshacer' post, shared by the dentist's and the admin's day views: the route guards, this
 * parses and answers. A plain form post (no JavaScript) goes back to the page it came from.
 */
export async function handleNoShowPost(
  db: Database,
  user: SessionUser,
  request: Request,
  form: Record<string, string>,
  options: { paymentsOn: boolean; backTo: string; now?: Date },
) {
  const parsed = noShowActionSchema.safeParse(form);
  if (!parsed.success) return validationResult(parsed.error);
  const actor = { id: user.id, roles: user.roles, ip: clientIp(request) };
  const navigation = request.headers.get("Sec-Fetch-Mode") === "navigate";
  try {
    const input = parsed.data;
    const outcome =
      input.intent === "mark"
        ? await markNoShow(db, actor, input.appointmentId, options)
        : await undoNoShow(db, actor, input.appointmentId, options);
    if (navigation) return redirect(options.backTo, 303);
    const what = input.intent === "mark" ? "Marcada como No asistió" : "Inasistencia deshecha";
    const deposit = outcome.depositRequired ? " Desde ahora, al agendar en línea se le pedirá un abono." : "";
    return data<ActionResult<{ count: number }>>(
      actionSuccess(
        { count: outcome.count },
        `${what}. El paciente tiene ${noShowCountText(outcome.count)}.${deposit}`,
      ),
    );
  } catch (error) {
    return appErrorResult(error);
  }
}
