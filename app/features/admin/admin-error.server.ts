import { data } from "react-router";
import { isAppError } from "~/lib/errors";

export type AdminActionResult = { ok: true; message: string } | { ok: false; message: string };

/**
 * An AppError → the admin action's answer: 404 is thrown (the page's error boundary shows it); the others are
 * returned with their status so the form shows the message. Anything else is not ours and is rethrown.
 */
export function adminErrorResult(error: unknown) {
  if (!isAppError(error)) throw error;
  if (error.code === "NOT_FOUND") throw data({ message: error.message }, { status: error.status });
  return data<AdminActionResult>({ ok: false, message: error.message }, { status: error.status });
}
