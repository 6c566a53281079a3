import type { Database } from "~/db/client.server";
import type { ContactDecision, ContactPurpose } from "~/domain/consent-rules";
import { accountSubject, contactSubject, mayContact } from "~/features/consent/consent-service.server";
import { leadContacts } from "./whatsapp-repository.server";
import type { WhatsAppPurposeName } from "./whatsapp-labels";

/**
 * Which consent a WhatsApp message to a person needs (ADR 037). Messages to the clinic's own number, a one-time code
 * the person asked for themselves, the answers to their rights requests, and the staff's test sends need none: null.
 */
export const whatsAppConsentPurpose: Record<WhatsAppPurposeName, ContactPurpose | null> = {
  "lead-advisor": null,
  "lead-patient": "datos_contacto",
  "appointment-patient": "recordatorios_whatsapp",
  "appointment-clinic": null,
  reminder: "recordatorios_whatsapp",
  "clinical-record-code": null,
  "payment-patient": "recordatorios_whatsapp",
  // The code and the answers of a rights request the person made: the law makes the clinic answer (ADR 037).
  "privacy-request": null,
  test: null,
};

/**
 * `mayContact` for one WhatsApp message: its person is the account it belongs to or the lead it answers, and the
 * number it goes to. Null when the message needs no consent.
 */
export async function mayContactOnWhatsApp(
  db: Database,
  message: { purpose: string; toPhone: string; userId: string | null; leadId: string | null },
  now?: Date,
): Promise<ContactDecision | null> {
  const purpose = whatsAppConsentPurpose[message.purpose as WhatsAppPurposeName] ?? null;
  if (!purpose) return null;
  const base = message.userId
    ? await accountSubject(db, message.userId)
    : contactSubject({ emails: [message.leadId ? (await leadContacts(db, message.leadId))?.email : null] });
  const subject = contactSubject({
    userId: base.userId,
    emails: base.emails,
    phones: [...base.phones, message.toPhone],
  });
  return mayContact(db, subject, purpose, { now });
}
