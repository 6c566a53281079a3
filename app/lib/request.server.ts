import { data } from "react-router";
import { formToObject } from "./form-data";

/** The form body as plain strings; a malformed body is a 400 with a generic Spanish message. */
export async function readForm(request: Request): Promise<Record<string, string>> {
  try {
    return formToObject(await request.formData());
  } catch {
    throw data("La solicitud no es válida. Revisa los datos e intenta nuevamente.", { status: 400 });
  }
}
