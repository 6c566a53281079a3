/**
 * The Chilean RUT: cleaning, display format and validation with fixed messages (screens and tests quote them).
 * One module for the browser and the server, so both answer the same specific message. Pure.
 *
 * The check digit is the standard modulo 11: weights 2–7 cycling from the right, digit = 11 − (sum mod 11), where 11
 * gives 0 and 10 gives K. The product brief worded the remainder rule differently ("remainder 0 or 1 gives that
 * digit"), which its own published examples (12.345.678-5, 12.678.579-8…) contradict; the standard rule matches them.
 */

export const RUT_MESSAGES = {
  empty: "Por favor ingresa tu RUT",
  length: "El RUT debe tener entre 8 y 9 caracteres",
  body: "El cuerpo del RUT debe ser numérico",
  checkDigit: "El dígito verificador debe ser un número o K",
  invalid: "El RUT ingresado no es válido",
} as const;

/** The input field's maximum length: "12.345.678-5", the longest formatted RUT. */
export const RUT_MAX_LENGTH = 12;

/** Digits and K only, upper-case (what the auto-formatting input keeps of what is typed or pasted). */
export function cleanRut(input: string): string {
  return input.toUpperCase().replace(/[^0-9K]/g, "");
}

/**
 * The display form while typing and after: thousands dots in the body and a dash before the check digit
 * ("12345678k" → "12.345.678-K"). At most 9 significant characters, so the result fits RUT_MAX_LENGTH.
 */
export function formatRut(input: string): string {
  const clean = cleanRut(input).slice(0, 9);
  if (clean.length <= 1) return clean;
  const body = clean.slice(0, -1).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${body}-${clean.slice(-1)}`;
}

/** The check digit of a numeric RUT body. */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let weight = 2;
  for (let index = body.length - 1; index >= 0; index--) {
    sum += Number(body[index]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  if (digit === 11) return "0";
  if (digit === 10) return "K";
  return String(digit);
}

export type RutValidation =
  | { ok: true; /** "12345678-5": the form stored and sent to Dentalink. */ rut: string; formatted: string }
  | { ok: false; message: (typeof RUT_MESSAGES)[keyof typeof RUT_MESSAGES] };

/** Validates a RUT as typed (dots and dash optional), checking format, then length, then the check digit. */
export function validateRut(input: string): RutValidation {
  const trimmed = input.trim();
  if (trimmed === "") return { ok: false, message: RUT_MESSAGES.empty };
  const compact = trimmed.replace(/[.-]/g, "").toUpperCase();
  if (compact.length < 8 || compact.length > 9) return { ok: false, message: RUT_MESSAGES.length };
  const body = compact.slice(0, -1);
  const checkDigit = compact.slice(-1);
  if (!/^\d+$/.test(body)) return { ok: false, message: RUT_MESSAGES.body };
  if (!/^[0-9K]$/.test(checkDigit)) return { ok: false, message: RUT_MESSAGES.checkDigit };
  if (rutCheckDigit(body) !== checkDigit) return { ok: false, message: RUT_MESSAGES.invalid };
  const rut = `${body}-${checkDigit}`;
  return { ok: true, rut, formatted: formatRut(rut) };
}
