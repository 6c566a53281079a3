import { data } from "react-router";
import { containsNul } from "~/domain/nul-character";
import { formToObject } from "./form-data";

export const INVALID_REQUEST_MESSAGE = "La solicitud no es válida. Revisa los datos e intenta nuevamente.";

/**
 * The form body as plain strings. A malformed body, or one holding a NUL character anywhere (PostgreSQL cannot store
 * it; ADR 034), is a 400 with a generic Spanish message.
 */
export async function readForm(request: Request): Promise<Record<string, string>> {
  let form: Record<string, string>;
  try {
    form = formToObject(await request.formData());
  } catch {
    throw data(INVALID_REQUEST_MESSAGE, { status: 400 });
  }
  if (containsNul(form)) throw data(INVALID_REQUEST_MESSAGE, { status: 400 });
  return form;
}

/**
 * A JSON body. Throws a SyntaxError for malformed JSON and for a NUL character in any key or string (ADR 034), so
 * a caller answers both as the same 400.
 */
export async function readJson(request: Request): Promise<unknown> {
  const body: unknown = JSON.parse(await request.text());
  if (containsNul(body)) throw new SyntaxError(INVALID_REQUEST_MESSAGE);
  return body;
}
