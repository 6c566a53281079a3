import type { z } from "zod";

export type FieldErrors = Partial<Record<string, string>>;

/** First message per field, for showing beside the inputs. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    result[field] ??= issue.message;
  }
  return result;
}

/** FormData → plain object of strings; repeated or file fields are ignored (no prototype pollution: null proto). */
export function formToObject(form: FormData): Record<string, string> {
  const result: Record<string, string> = Object.create(null);
  for (const [key, value] of form) {
    if (typeof value === "string" && !(key in result)) result[key] = value;
  }
  return result;
}
