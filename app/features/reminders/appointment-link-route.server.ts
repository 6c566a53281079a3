import { data } from "react-router";
import { getDb } from "~/db/client.server";
import type { AppointmentLinkAction } from "~/domain/appointment-links";
import { clientIp } from "~/lib/client-ip.server";
import { isAppError } from "~/lib/base/errors";
import { publicWriter } from "~/lib/public-write-limit.server";
import { readForm } from "~/lib/request.server";
import {
  appointmentLinkPage,
  actOnAppointmentLink,
  type AppointmentLinkPage,
} from "./appointment-link-service.server";

/**
 * Never stored by a browser, a proxy or the anonymous-HTML cache (the page changes when the link is used), and the
 * token in the URL is not sent on as a Referer.
 */
export const appointmentLinkHeaders = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

function respond(page: AppointmentLinkPage, extra: Record<string, string> = {}) {
  return data(page.view, { status: page.status, headers: { ...appointmentLinkHeaders, ...extra } });
}

/** GET of /cita/confirmar/:token and /cita/cancelar/:token: shows, changes nothing. */
export async function appointmentLinkLoader(action: AppointmentLinkAction, token: string | undefined) {
  return respond(await appointmentLinkPage(await getDb(), action, token ?? ""));
}

/** POST of the same pages: rate-limited per client address, then the link's action. */
export async function appointmentLinkAction(
  action: AppointmentLinkAction,
  token: string | undefined,
  request: Request,
) {
  const form = await readForm(request);
  const fee = form.fee === undefined || form.fee === "" ? undefined : Number(form.fee);
  const db = await getDb();
  try {
    return respond(
      await actOnAppointmentLink(db, action, token ?? "", {
        shownFee: Number.isFinite(fee) ? fee : undefined,
        writer: publicWriter(request),
        ip: clientIp(request),
      }),
    );
  } catch (error) {
    if (!isAppError(error) || error.code !== "RATE_LIMITED") throw error;
    const page = await appointmentLinkPage(db, action, token ?? "");
    return respond(
      { status: error.status, view: { ...page.view, notice: error.message } },
      error.retryAfter === undefined ? {} : { "Retry-After": String(error.retryAfter) },
    );
  }
}
