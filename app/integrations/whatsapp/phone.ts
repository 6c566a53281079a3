/**
 * WhatsApp numbers as the provider takes them: digits with the country code and nothing else (`56912345678`),
 * https://www.infobip.com/docs/api/channels/whatsapp (the `to` field).
 */

export class InvalidWhatsAppNumberError extends Error {
  readonly code = "INVALID_PHONE";

  constructor() {
    // The number itself stays out of the message: phones are personal data and messages end up in logs.
    super("not a WhatsApp number: 8 to 15 digits with the country code expected");
    this.name = "InvalidWhatsAppNumberError";
  }
}

/**
 * Strips spaces, dashes, parentheses and a leading `+`; null unless what is left is 8–15 digits (E.164 allows at
 * most 15). A `+` elsewhere, letters or other signs are refused rather than dropped, since they mean the input
 * is not a phone number at all.
 */
export function normalizeWhatsAppNumber(input: string): string | null {
  const compact = input.replace(/[\s\-()]/g, "");
  const digits = compact.startsWith("+") ? compact.slice(1) : compact;
  return /^\d{8,15}$/.test(digits) ? digits : null;
}

/** Like `normalizeWhatsAppNumber`, throwing `InvalidWhatsAppNumberError` for a number that cannot be sent to. */
export function toWhatsAppNumber(input: string): string {
  const number = normalizeWhatsAppNumber(input);
  if (number === null) throw new InvalidWhatsAppNumberError();
  return number;
}
