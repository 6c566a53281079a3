import { data } from "react-router";
import { actionFailure, validationFailure } from "./action-result";
import { isAppError, type AppError } from "./errors";
import type { z } from "zod";

/**
 * The one mapping of a service's AppError to an action's answer (ADR 013): the failure shape with the error's
 * Spanish message and status (VALIDATION 400, FORBIDDEN 403, NOT_FOUND 404, CONFLICT 409, RATE_LIMITED 429 with
 * Retry-After when known, UPSTREAM_FAILED 502). `notFound: "throw"` sends 404 to the route's error boundary
 * instead, for pages whose subject is gone. Anything that is not an AppError is rethrown (500).
 */
export function appErrorResult(error: unknown, options: { notFound?: "return" | "throw" } = {}) {
  if (!isAppError(error)) throw error;
  if (error.code === "NOT_FOUND" && options.notFound === "throw") {
    throw data({ message: error.message }, { status: error.status });
  }
  return data(actionFailure(error.code, error.message), {
    status: error.status,
    headers: retryHeaders(error),
  });
}

/**
 * The same mapping for an API that answers JSON of its own shape (the chat platform's `{detail}`): `body` builds
 * the answer from the error; `headers` are added to every answer. Anything that is not an AppError is rethrown.
 */
export function appErrorResponse(
  error: unknown,
  body: (error: AppError) => unknown,
  headers: Record<string, string> = {},
): Response {
  if (!isAppError(error)) throw error;
  return Response.json(body(error), {
    status: error.status,
    headers: { ...headers, ...retryHeaders(error) },
  });
}

/** Retry-After (seconds) for a RATE_LIMITED error that knows it. */
function retryHeaders(error: AppError): Record<string, string> {
  return error.retryAfter === undefined ? {} : { "Retry-After": String(error.retryAfter) };
}

/** A form that failed its schema: 400 with the messages per field. */
export function validationResult(error: z.ZodError, fallback?: string) {
  return data(validationFailure(error, fallback), { status: 400 });
}
