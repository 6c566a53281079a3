import type { z } from "zod";
import type { AppErrorCode } from "./errors";

/** Messages per field name, as Conform keeps them (`SubmissionResult.error`); the first one is shown. */
export type FieldErrors = Record<string, string[]>;

/**
 * `INTERNAL`: an unexpected failure the action chose to answer itself (logged) instead of the error boundary.
 * `UNAUTHORIZED`: credentials or a sign-in code that were not accepted (401, the sign-in page only).
 */
export type ActionErrorCode = AppErrorCode | "INTERNAL" | "UNAUTHORIZED";

export interface ActionFailure {
  ok: false;
  code: ActionErrorCode;
  /** Spanish, form-level: what a form shows when no field carries the error. */
  message: string;
  fieldErrors?: FieldErrors;
}

export type ActionSuccess<Data = undefined> = { ok: true; message?: string } & ([Data] extends [undefined]
  ? { data?: undefined }
  : { data: Data });

/** What every action answers (ADR 013); `errors.server.ts` builds the failures from thrown AppErrors. */
export type ActionResult<Data = undefined> = ActionSuccess<Data> | ActionFailure;

/** Any action's answer, for code that only reads the failures. */
export type AnyActionResult = { ok: true } | ActionFailure;

export function actionSuccess(): ActionSuccess;
export function actionSuccess<Data>(data: Data, message?: string): ActionSuccess<Data>;
export function actionSuccess(data?: unknown, message?: string) {
  const result: { ok: true; data?: unknown; message?: string } = { ok: true };
  if (data !== undefined) result.data = data;
  if (message !== undefined) result.message = message;
  return result;
}

export function actionFailure(
  code: ActionErrorCode,
  message: string,
  fieldErrors?: FieldErrors,
): ActionFailure {
  return fieldErrors ? { ok: false, code, message, fieldErrors } : { ok: false, code, message };
}

export const INVALID_REQUEST_MESSAGE = "La solicitud no es válida.";

/** Every message per field, in the schema's order; issues about the whole object go under "" (Conform's form key). */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const result: FieldErrors = Object.create(null);
  for (const issue of error.issues) {
    const field = issue.path.map(String).join(".");
    (result[field] ??= []).push(issue.message);
  }
  return { ...result };
}

/** A failed parse: the first message as the form-level one, and every message beside its field. */
export function validationFailure(error: z.ZodError, fallback = INVALID_REQUEST_MESSAGE): ActionFailure {
  return actionFailure("VALIDATION", error.issues[0]?.message ?? fallback, zodFieldErrors(error));
}

/** The first message for one field of a failed result, for the field's error line. */
export function fieldError(result: AnyActionResult | undefined, field: string): string | undefined {
  return result && !result.ok ? result.fieldErrors?.[field]?.[0] : undefined;
}

/** The message of a failure that belongs to no field (a refusal of the whole form), if that is what came back. */
export function formLevelMessage(result: AnyActionResult | undefined): string | undefined {
  return result && !result.ok && !result.fieldErrors ? result.message : undefined;
}
