import { data } from "react-router";

/** FormData → plain object of strings; repeated or file fields are ignored (no prototype pollution: null proto). */
export function formToObject(form: FormData): Record<string, string> {
  const result: Record<string, string> = Object.create(null);
  for (const [key, value] of form) {
    if (typeof value === "string" && !(key in result)) result[key] = value;
  }
  return result;
}

/** The form body as plain strings; a malformed body is a 400 with a generic Spanish message. */
export async function readForm(request: Request): Promise<Record<string, string>> {
  try {
    return formToObject(await request.formData());
  } catch {
    throw data("La solicitud no es válida. Revisa los datos e intenta nuevamente.", { status: 400 });
  }
}
