/** The filters of /funnel/mensajes (`?estado=&proposito=&telefono=&desde=`). Client-safe. */
import { z } from "zod";
import { parseChileanPhone } from "~/domain/format";
import { whatsAppMessageStatuses, whatsAppPurposes } from "./whatsapp-labels";

export const PHONE_FILTER_ERROR =
  "Ingresa un teléfono válido para filtrar, por ejemplo +56 9 1234 5678 o 56912345678.";

/** Digits with the country code (8 to 15), spaces, dashes, parentheses and a leading + dropped; else null. */
function internationalDigits(value: string): string | null {
  const compact = value.replace(/[\s\-()]/g, "");
  const digits = compact.startsWith("+") ? compact.slice(1) : compact;
  return /^\d{8,15}$/.test(digits) ? digits : null;
}

/** A phone typed any common way → the digits with the country code the messages are stored with ("" = any). */
const phoneFilter = z
  .string()
  .trim()
  .max(30, PHONE_FILTER_ERROR)
  .transform((value, ctx) => {
    if (value === "") return "";
    const chilean = parseChileanPhone(value);
    const digits = chilean ? chilean.slice(1) : internationalDigits(value);
    if (digits === null) {
      ctx.addIssue({ code: "custom", message: PHONE_FILTER_ERROR });
      return z.NEVER;
    }
    return digits;
  });

/** The last row's id of the previous page, or "" for the newest. */
const CURSOR_PATTERN = /^(|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const messageLogSearchSchema = z.object({
  estado: z
    .enum(["", ...whatsAppMessageStatuses], { error: "Estado desconocido: elige un estado de la lista." })
    .default(""),
  proposito: z
    .enum(["", ...whatsAppPurposes], { error: "Propósito desconocido: elige un propósito de la lista." })
    .default(""),
  telefono: phoneFilter.default(""),
  desde: z
    .string()
    .regex(CURSOR_PATTERN, "La página pedida no es válida; vuelve a los mensajes más recientes.")
    .default("")
    .transform((value) => value.toLowerCase()),
});

export type MessageLogSearch = z.output<typeof messageLogSearchSchema>;

/** The query string's values (the first of each), as the schema reads them. */
export function messageLogParams(params: URLSearchParams): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of ["estado", "proposito", "telefono", "desde"]) {
    const value = params.get(name);
    if (value !== null) result[name] = value;
  }
  return result;
}
