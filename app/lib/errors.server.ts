import { data } from "react-router";
import { isAppError } from "./errors";

/** Turns a service's AppError into a response with its Spanish message; anything else is rethrown (500). */
export function errorResponse(error: unknown) {
  if (isAppError(error)) return data({ ok: false as const, error: error.message }, { status: error.status });
  throw error;
}
