/**
 * FormData → plain object of strings; repeated or file fields are ignored (no prototype pollution: null proto).
 * The action (`readForm`) and the browser's check (`useValidatedForm`) read a form the same way.
 */
export function formToObject(form: FormData): Record<string, string> {
  const result: Record<string, string> = Object.create(null);
  for (const [key, value] of form) {
    if (typeof value === "string" && !(key in result)) result[key] = value;
  }
  return result;
}
