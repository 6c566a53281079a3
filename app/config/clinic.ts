/**
 * The clinic's facts: one source for every page, reply, legal text and e-mail.
 * Demo values are fictional (no real data in the repository). Deployments override them through CLINIC_* variables,
 * read in `lib/base/env.server.ts` and handed to the client through the root loader.
 */
export interface ClinicFacts {
  name: string;
  shortName: string;
  tagline: string;
  /** Landline, E.164. */
  phone: string;
  /** Mobile / WhatsApp, E.164. */
  mobile: string;
  email: string;
  adminEmail: string;
  privacyEmail: string;
  address: string;
  streetAddress: string;
  locality: string;
  region: string;
  /** Weekday opening and closing times, "HH:mm" (machine-readable: JSON-LD, schedules). */
  opens: string;
  closes: string;
  /** "Lun - Vie: 9:00 AM - 18:00 hrs" (contact section). */
  hoursShort: string;
  /** "Lunes a viernes, 9:00 a 18:00 hrs" (replies, contact dialog, legal texts). */
  hoursLong: string;
  /** "de lunes a viernes, de 9:00 a 18:00 hrs" (inside a sentence). */
  hoursInSentence: string;
  /** "Lun-Vie 9:00-18:00" (the advisor's help card). */
  hoursCompact: string;
  /** "9:00 - 18:00" */
  hoursRange: string;
  saturday: string;
  emergencyNumber: string;
  reviewsUrl: string;
  siteUrl: string;
  foundedYear: number;
}

/**
 * The clinic's hours, one set (ADR 009): Monday to Friday 9:00–18:00, Saturday on request. Every text that states
 * them is derived from these two times.
 */
const OPENS = "09:00";
const CLOSES = "18:00";

/** Opening and closing on the clinic's clock, "HH:MM" (the demo's appointments stay between them). */
export const clinicOpeningHours = { opens: OPENS, closes: CLOSES } as const;

/** The midday break that splits the day into the parts a patient may choose for a call back. */
const MIDDAY_BREAK_STARTS = "13:00";
const MIDDAY_BREAK_ENDS = "14:00";

/** "09:00" → "9:00", as the clinic writes its hours. */
const shown = (time: string) => time.replace(/^0(\d)/, "$1");

/** The parts of the clinic's day, as the call-back form offers them: "9:00 a 13:00", "14:00 a 18:00". */
export const clinicDayParts = {
  morning: `${shown(OPENS)} a ${shown(MIDDAY_BREAK_STARTS)}`,
  afternoon: `${shown(MIDDAY_BREAK_ENDS)} a ${shown(CLOSES)}`,
} as const;

export const defaultClinic: ClinicFacts = {
  name: "Río Clínica Dental y Estética Facial",
  shortName: "Río Clínica",
  tagline: "La primera clínica híbrida con IA de Latinoamérica",
  phone: "+56223456789",
  mobile: "+56987654321",
  email: "contacto@clinica.example",
  adminEmail: "administracion@clinica.example",
  privacyEmail: "privacidad@clinica.example",
  address: "Av. Providencia 1234, piso 18, oficina 189, Providencia, Santiago",
  streetAddress: "Av. Providencia 1234, piso 18, oficina 189",
  locality: "Providencia, Santiago",
  region: "Región Metropolitana",
  opens: OPENS,
  closes: CLOSES,
  hoursShort: `Lun - Vie: ${shown(OPENS)} AM - ${shown(CLOSES)} hrs`,
  hoursLong: `Lunes a viernes, ${shown(OPENS)} a ${shown(CLOSES)} hrs`,
  hoursInSentence: `de lunes a viernes, de ${shown(OPENS)} a ${shown(CLOSES)} hrs`,
  hoursCompact: `Lun-Vie ${shown(OPENS)}-${shown(CLOSES)}`,
  hoursRange: `${shown(OPENS)} - ${shown(CLOSES)}`,
  saturday: "Sábados: consultar disponibilidad",
  emergencyNumber: "131",
  reviewsUrl: "https://www.google.com/search?q=R%C3%ADo+Cl%C3%ADnica+Dental+Providencia+opiniones",
  siteUrl: "http://localhost:3000",
  foundedYear: 2008,
};

/** Replaces `{{clinic.key}}` placeholders in content files with the clinic's facts. */
export function fillClinicPlaceholders(
  text: string,
  clinic: ClinicFacts,
  formatPhone: (e164: string) => string,
) {
  const values: Record<string, string> = {
    name: clinic.name,
    phone: formatPhone(clinic.phone),
    mobile: formatPhone(clinic.mobile),
    email: clinic.email,
    privacyEmail: clinic.privacyEmail,
    address: clinic.address,
    hours: clinic.hoursLong,
  };
  return text.replace(/\{\{clinic\.(\w+)\}\}/g, (match, key: string) => values[key] ?? match);
}
