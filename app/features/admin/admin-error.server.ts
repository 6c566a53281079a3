import { data } from "react-router";

export type AdminErrorCode = "NOT_FOUND" | "FORBIDDEN" | "VALIDATION" | "CONFLICT";

const statusByCode: Record<AdminErrorCode, number> = {
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  VALIDATION: 400,
  CONFLICT: 409,
};

/** A refused admin change, with the Spanish message shown to the administrator. */
export class AdminError extends Error {
  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AdminError";
  }
}

export type AdminActionResult = { ok: true; message: string } | { ok: false; message: string };

/**
 * An AdminError → the action's answer: 404 is thrown (the page's error boundary shows it); the others are returned
 * with their status so the form shows the message. Anything else is not ours and is rethrown.
 */
export function adminErrorResult(error: unknown) {
  if (!(error instanceof AdminError)) throw error;
  const status = statusByCode[error.code];
  if (error.code === "NOT_FOUND") throw data({ message: error.message }, { status });
  return data<AdminActionResult>({ ok: false, message: error.message }, { status });
}
