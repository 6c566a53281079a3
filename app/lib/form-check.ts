import type { z } from "zod";
import { zodFieldErrors, type FieldErrors } from "./base/action-result";
import { formToObject } from "./form-data";

/** The browser's check of a form: its fields read as the action reads them, then the action's schema. */
export function checkForm(schema: z.ZodType, form: HTMLFormElement): FieldErrors | null {
  const parsed = schema.safeParse(formToObject(new FormData(form)));
  return parsed.success ? null : zodFieldErrors(parsed.error);
}
