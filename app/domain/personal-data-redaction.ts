/**
 * Takes identifying data out of a text before it leaves for a processor that the person did not agree to (the LLM
 * provider, ADR 037): e-mail addresses, RUTs, phone numbers and the names we know for the person. Pure.
 * Conservative on purpose: a longer number that looks like a phone is removed too.
 */

export const REDACTED = {
  email: "[correo]",
  rut: "[RUT]",
  phone: "[teléfono]",
  name: "[nombre]",
} as const;

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
/** 12.345.678-9, 12345678-9, 12.345.678-K (also without the dots). */
const RUT = /\b\d{1,2}\.?\d{3}\.?\d{3}\s?-\s?[\dkK]\b/g;
/** A run of 8 or more digits, allowing a leading '+' and spaces, dots, dashes or brackets between them. */
const PHONE = /\+?\(?\d(?:[\s.()-]*\d){7,}/g;

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The name's words worth hiding: 3 letters or more, none of the placeholders chat guests get. */
function nameWords(names: readonly (string | null | undefined)[]): string[] {
  const ignored = new Set(["anonymous", "visitor", "paciente", "invitado"]);
  const words = names
    .flatMap((name) => (name ?? "").split(/\s+/))
    .map((word) => word.replace(/[^\p{L}'-]/gu, ""))
    .filter((word) => word.length >= 3 && !ignored.has(word.toLowerCase()));
  return [...new Set(words)].toSorted((a, b) => b.length - a.length);
}

export function redactPersonalData(
  text: string,
  known: { names?: readonly (string | null | undefined)[] } = {},
): string {
  let out = text.replace(EMAIL, REDACTED.email).replace(RUT, REDACTED.rut).replace(PHONE, REDACTED.phone);
  for (const word of nameWords(known.names ?? [])) {
    // Whole words only, any case; \p{L} boundaries so "Ana" does not touch "Anastasia" or "banana".
    out = out.replace(new RegExp(`(?<![\\p{L}])${escapeRegExp(word)}(?![\\p{L}])`, "giu"), REDACTED.name);
  }
  return out;
}
