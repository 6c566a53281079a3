import { z } from "zod";

/**
 * Dentalink (HealthAtom) API v1 shapes (DESIGN decision 12, ADR 017; docs/research/dentalink-whatsapp-chile.md §1). Client-safe: the
 * mapping, the client, the mock and the fake share these.
 *
 * Every record accepts each field variant the spec lists (the prototype's English names beside Dentalink's
 * Spanish ones: name/nombre, email/correo/email_paciente, phone/telefono/celular, …); which variant wins is decided
 * in one place, `dentalink-mapping.ts`. Objects are loose: the vendor adds fields, and unknown ones are kept out
 * of the portal's shapes by the mapping, never an error here. Dates are normalised to `AAAA-MM-DD` while parsing.
 */

export const DENTALINK_DEFAULT_BASE_URL = "https://api.dentalink.healthatom.com/api/v1";
export const DENTALINK_SYSTEM = "dentalink";

export const DENTALINK_PATHS = {
  patients: "/pacientes",
  patient: (id: string) => `/pacientes/${encodeURIComponent(id)}`,
  patientAppointments: (id: string) => `/pacientes/${encodeURIComponent(id)}/citas`,
  // Medilink (same vendor, same API design) documents /pacientes/{id}/pagos; Dentalink's own docs were not
  // readable (docs/research/dentalink-whatsapp-chile.md §1.2, [U]): confirm with the clinic's account before relying on it.
  patientPayments: (id: string) => `/pacientes/${encodeURIComponent(id)}/pagos`,
  patientTreatments: (id: string) => `/pacientes/${encodeURIComponent(id)}/tratamientos`,
  // No Dentalink endpoint for documents or x-rays was found; Medilink documents /pacientes/{id}/archivos and the
  // research decided to read both through it, x-rays classified by type (docs/research/dentalink-whatsapp-chile.md §1.2). Uncertain.
  patientFiles: (id: string) => `/pacientes/${encodeURIComponent(id)}/archivos`,
  dentists: "/dentistas",
  branches: "/sucursales",
  appointments: "/citas",
  appointment: (id: string) => `/citas/${encodeURIComponent(id)}`,
  appointmentStates: "/citas/estados",
} as const;

// ---- Dates and times ------------------------------------------------------------------------------------------

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A date as Dentalink writes it (`AAAA-MM-DD`, sometimes `DD/MM/AAAA`, docs/research/dentalink-whatsapp-chile.md §1.1; a time after it is
 * ignored) as `AAAA-MM-DD`; null when it is not a calendar date.
 */
export function normaliseDentalinkDate(value: string): string | null {
  const text = value.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  const chilean = iso ? null : /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/.exec(text);
  const [year, month, day] = iso
    ? [iso[1], iso[2], iso[3]]
    : chilean
      ? [chilean[3], chilean[2], chilean[1]]
      : [undefined, undefined, undefined];
  if (year === undefined || month === undefined || day === undefined) return null;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return null;
  return `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
}

/** `H:MM`, `HH:MM` or `HH:MM:SS` as `HH:MM`; null otherwise. */
export function normaliseDentalinkTime(value: string): string | null {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(value.trim());
  if (!match?.[1] || !match[2]) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, "0")}:${match[2]}`;
}

/** Values PHP back ends write for "no date": read as absent rather than as an error. */
const emptyDates = new Set(["", "0000-00-00", "00/00/0000", "0000-00-00 00:00:00"]);

/** An optional vendor date, normalised to `AAAA-MM-DD` (null when absent); an unreadable one fails the parse. */
export const dentalinkDateSchema = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value, context): string | null => {
    if (value === null || value === undefined || emptyDates.has(value.trim())) return null;
    const date = normaliseDentalinkDate(value);
    if (date === null) {
      context.addIssue({ code: "custom", message: "not a date (AAAA-MM-DD or DD/MM/AAAA expected)" });
      return z.NEVER;
    }
    return date;
  });

/** An optional vendor time, normalised to `HH:MM` (null when absent); an unreadable one fails the parse. */
export const dentalinkTimeSchema = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value, context): string | null => {
    if (value === null || value === undefined || value.trim() === "") return null;
    const time = normaliseDentalinkTime(value);
    if (time === null) {
      context.addIssue({ code: "custom", message: "not a time (HH:MM expected)" });
      return z.NEVER;
    }
    return time;
  });

// ---- Scalars --------------------------------------------------------------------------------------------------

/** Dentalink ids are integers; the mock's dentists are `dr-…` strings. */
export const dentalinkIdSchema = z.union([z.number().int(), z.string().trim().min(1)]);
export type DentalinkId = z.infer<typeof dentalinkIdSchema>;

const optionalId = dentalinkIdSchema.nullish();
const optionalText = z.string().nullish();
/** Amounts, percentages, durations: numbers, or numbers written as text. */
const optionalNumeric = z.union([z.number(), z.string()]).nullish();
/** Dentalink's 0/1 flags; also booleans and "0"/"1". */
const optionalFlag = z.union([z.number(), z.boolean(), z.string()]).nullish();

// ---- Records --------------------------------------------------------------------------------------------------

/** `/pacientes` (tap-dentalink `pacientes.json`) and the spec's `name/nombre, email/correo, phone/telefono`. */
export const dentalinkPatientRecordSchema = z.looseObject({
  id: optionalId,
  id_paciente: optionalId,
  patient_id: optionalId,
  rut: optionalText,
  name: optionalText,
  nombre: optionalText,
  first_name: optionalText,
  last_name: optionalText,
  apellidos: optionalText,
  apellido: optionalText,
  email: optionalText,
  correo: optionalText,
  email_paciente: optionalText,
  phone: optionalText,
  telefono: optionalText,
  celular: optionalText,
  fecha_nacimiento: dentalinkDateSchema,
  birth_date: dentalinkDateSchema,
  direccion: optionalText,
  address: optionalText,
  ciudad: optionalText,
  comuna: optionalText,
  city: optionalText,
});
export type DentalinkPatientRecord = z.output<typeof dentalinkPatientRecordSchema>;

/** `/pacientes/{id}/citas` (tap-dentalink `citas.json`) and the spec's appointment variants. */
export const dentalinkAppointmentRecordSchema = z.looseObject({
  id: optionalId,
  appointment_id: optionalId,
  id_cita: optionalId,
  id_paciente: optionalId,
  date: dentalinkDateSchema,
  fecha: dentalinkDateSchema,
  time: dentalinkTimeSchema,
  hora: dentalinkTimeSchema,
  hora_inicio: dentalinkTimeSchema,
  hora_fin: dentalinkTimeSchema,
  duracion: optionalNumeric,
  status: optionalText,
  estado: optionalText,
  estado_cita: optionalText,
  id_estado: optionalId,
  estado_anulacion: optionalFlag,
  treatment: optionalText,
  tratamiento: optionalText,
  nombre_tratamiento: optionalText,
  doctor: optionalText,
  dentist: optionalText,
  nombre_dentista: optionalText,
  id_dentista: optionalId,
  office: optionalText,
  consultorio: optionalText,
  nombre_sillon: optionalText,
  id_sucursal: optionalId,
  nombre_sucursal: optionalText,
  comentarios: optionalText,
  comentario: optionalText,
});
export type DentalinkAppointmentRecord = z.output<typeof dentalinkAppointmentRecordSchema>;

/** `/pagos` (tap-dentalink `pagos.json`) and the spec's `id/payment_id, date, amount, concept, status, method`. */
export const dentalinkPaymentRecordSchema = z.looseObject({
  id: optionalId,
  payment_id: optionalId,
  id_pago: optionalId,
  date: dentalinkDateSchema,
  fecha: dentalinkDateSchema,
  fecha_recepcion: dentalinkDateSchema,
  fecha_creacion: dentalinkDateSchema,
  amount: optionalNumeric,
  monto: optionalNumeric,
  monto_pago: optionalNumeric,
  total: optionalNumeric,
  concept: optionalText,
  concepto: optionalText,
  status: optionalText,
  estado: optionalText,
  method: optionalText,
  metodo: optionalText,
  medio_pago: optionalText,
});
export type DentalinkPaymentRecord = z.output<typeof dentalinkPaymentRecordSchema>;

/**
 * `/tratamientos` (tap-dentalink `tratamientos.json`) and the spec's treatment variants. A tratamiento is also the
 * clinic's budget (presupuesto): `total` is its value, `abonado` what was paid towards it, `total_realizado` the value
 * of the work done and `deuda` what is owed; `abono_libre` is paid and not yet assigned to any work. Dentalink's own
 * docs describe none of these fields (docs/research/dentalink-whatsapp-chile.md §1.2, [S]): all optional.
 */
export const dentalinkTreatmentRecordSchema = z.looseObject({
  id: optionalId,
  treatment_id: optionalId,
  id_tratamiento: optionalId,
  name: optionalText,
  nombre: optionalText,
  description: optionalText,
  descripcion: optionalText,
  comentario: optionalText,
  status: optionalText,
  estado: optionalText,
  finalizado: optionalFlag,
  start_date: dentalinkDateSchema,
  fecha_inicio: dentalinkDateSchema,
  fecha: dentalinkDateSchema,
  end_date: dentalinkDateSchema,
  fecha_fin: dentalinkDateSchema,
  progress: optionalNumeric,
  progreso: optionalNumeric,
  total: optionalNumeric,
  total_realizado: optionalNumeric,
  abonado: optionalNumeric,
  abono_libre: optionalNumeric,
  deuda: optionalNumeric,
  nombre_dentista: optionalText,
  nombre_sucursal: optionalText,
});
export type DentalinkTreatmentRecord = z.output<typeof dentalinkTreatmentRecordSchema>;

/**
 * `/pacientes/{id}/archivos` (assumed, see `DENTALINK_PATHS.patientFiles`): documents and x-rays alike, with the
 * spec's `id/document_id/xray_id, name, type, date, url/download_url/image_url`.
 */
export const dentalinkFileRecordSchema = z.looseObject({
  id: optionalId,
  document_id: optionalId,
  xray_id: optionalId,
  id_archivo: optionalId,
  name: optionalText,
  nombre: optionalText,
  type: optionalText,
  tipo: optionalText,
  category: optionalText,
  categoria: optionalText,
  date: dentalinkDateSchema,
  fecha: dentalinkDateSchema,
  fecha_creacion: dentalinkDateSchema,
  url: optionalText,
  download_url: optionalText,
  image_url: optionalText,
  url_descarga: optionalText,
});
export type DentalinkFileRecord = z.output<typeof dentalinkFileRecordSchema>;

/** `/dentistas`. It also carries the dentist's RUT, e-mail and phone: the mapping drops them (docs/research/dentalink-whatsapp-chile.md §1.2). */
export const dentalinkDentistRecordSchema = z.looseObject({
  id: optionalId,
  id_dentista: optionalId,
  name: optionalText,
  nombre: optionalText,
  apellidos: optionalText,
  especialidad: optionalText,
  specialty: optionalText,
  intervalo: optionalNumeric,
  habilitado: optionalFlag,
  agenda_online: optionalFlag,
});
export type DentalinkDentistRecord = z.output<typeof dentalinkDentistRecordSchema>;

/** `/sucursales`. */
export const dentalinkBranchRecordSchema = z.looseObject({
  id: optionalId,
  id_sucursal: optionalId,
  name: optionalText,
  nombre: optionalText,
  direccion: optionalText,
  address: optionalText,
  ciudad: optionalText,
  comuna: optionalText,
  telefono: optionalText,
  habilitada: optionalFlag,
});
export type DentalinkBranchRecord = z.output<typeof dentalinkBranchRecordSchema>;

/** `/citas/estados` (tap-dentalink `estado_citas.json`): ids are configured per clinic, never hard-coded. */
export const dentalinkAppointmentStateRecordSchema = z.looseObject({
  id: optionalId,
  id_estado: optionalId,
  name: optionalText,
  nombre: optionalText,
  color: optionalText,
  reservado: optionalFlag,
  anulacion: optionalFlag,
  uso_interno: optionalFlag,
  habilitado: optionalFlag,
});
export type DentalinkAppointmentStateRecord = z.output<typeof dentalinkAppointmentStateRecordSchema>;

// ---- Envelope -------------------------------------------------------------------------------------------------

/** Top-level `links`: `next` is a full URL ending in `cursor=…`, absent (or null) on the last page. */
const pageLinksSchema = z.union([
  z.looseObject({ next: z.string().nullish() }),
  // Records carry `links: [{rel, href}]`; tolerate the same form at the top level (no `next` then).
  z.array(z.unknown()),
]);

/** A list answer: `{data: [...], links?: {next?}}`. */
export function dentalinkListSchema<Item extends z.ZodType>(item: Item) {
  return z.looseObject({ data: z.array(item), links: pageLinksSchema.nullish() });
}

/** A single-record answer: `{data: {...}}`. */
export function dentalinkItemSchema<Item extends z.ZodType>(item: Item) {
  return z.looseObject({ data: item });
}

/** The `links.next` of a parsed list page, if any. */
export function nextPageUrl(links: unknown): string | undefined {
  if (!links || typeof links !== "object" || Array.isArray(links)) return undefined;
  const next = (links as { next?: unknown }).next;
  return typeof next === "string" && next.trim() !== "" ? next : undefined;
}

// ---- Errors ---------------------------------------------------------------------------------------------------

const nestedErrorSchema = z.looseObject({ error: z.looseObject({ message: z.string() }) });
const flatErrorSchema = z.looseObject({ message: z.string() });

/** `{"error":{"message":"…"}}` (docs/research/dentalink-whatsapp-chile.md §1.1) or a top-level `{"message":"…"}` (gloory). */
export const dentalinkErrorBodySchema = z.union([nestedErrorSchema, flatErrorSchema]);
export type DentalinkErrorBody = z.infer<typeof dentalinkErrorBodySchema>;

/** The vendor's error text of an error body, if any. */
export function dentalinkErrorMessage(body: unknown): string | undefined {
  const nested = nestedErrorSchema.safeParse(body);
  if (nested.success) return nested.data.error.message;
  const flat = flatErrorSchema.safeParse(body);
  return flat.success ? flat.data.message : undefined;
}

// ---- Requests -------------------------------------------------------------------------------------------------

/** The `q` filter: `{"<field>":{"<op>":"<value>"}}`, or an array of conditions on one field (docs/research/dentalink-whatsapp-chile.md §1.1). */
export const dentalinkFilterOperators = ["eq", "neq", "gt", "gte", "lt", "lte", "lk"] as const;
export type DentalinkFilterOperator = (typeof dentalinkFilterOperators)[number];
export type DentalinkCondition = Partial<Record<DentalinkFilterOperator, string | number>>;
export type DentalinkFilter = Record<string, DentalinkCondition | DentalinkCondition[]>;

const conditionSchema = z.strictObject({
  eq: z.union([z.string(), z.number()]).optional(),
  neq: z.union([z.string(), z.number()]).optional(),
  gt: z.union([z.string(), z.number()]).optional(),
  gte: z.union([z.string(), z.number()]).optional(),
  lt: z.union([z.string(), z.number()]).optional(),
  lte: z.union([z.string(), z.number()]).optional(),
  lk: z.union([z.string(), z.number()]).optional(),
});
export const dentalinkFilterSchema = z.record(
  z.string().min(1),
  z.union([conditionSchema, z.array(conditionSchema).min(1)]),
);

/** `POST /pacientes` (gloory): nombre and apellidos are the minimum. */
export const dentalinkCreatePatientRequestSchema = z.object({
  nombre: z.string().trim().min(1),
  apellidos: z.string().trim().min(1),
  rut: z.string().optional(),
  email: z.string().optional(),
  celular: z.string().optional(),
  fecha_nacimiento: z.string().optional(),
  direccion: z.string().optional(),
  ciudad: z.string().optional(),
});
export type DentalinkCreatePatientRequest = z.infer<typeof dentalinkCreatePatientRequestSchema>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "AAAA-MM-DD expected");
const hhmm = z.string().regex(/^\d{2}:\d{2}$/, "HH:MM expected");

/** `POST /citas` (docs/research/dentalink-whatsapp-chile.md §1.2). Without `id_estado` Dentalink uses its "No confirmado" state. */
export const dentalinkCreateAppointmentRequestSchema = z.object({
  id_paciente: dentalinkIdSchema,
  id_dentista: dentalinkIdSchema,
  id_sucursal: dentalinkIdSchema,
  fecha: isoDate,
  hora_inicio: hhmm,
  duracion: z.number().int().positive().optional(),
  id_estado: dentalinkIdSchema.optional(),
  id_sillon: dentalinkIdSchema.optional(),
  comentario: z.string().optional(),
});
export type DentalinkCreateAppointmentRequest = z.infer<typeof dentalinkCreateAppointmentRequestSchema>;

/** `PUT /citas/{id}` to cancel: the clinic's cancelled state id, a comment, and whether Dentalink notifies. */
export const dentalinkUpdateAppointmentRequestSchema = z.object({
  id_estado: dentalinkIdSchema,
  comentarios: z.string().optional(),
  flag_notificar_anulacion: z.union([z.literal(0), z.literal(1)]).optional(),
});
export type DentalinkUpdateAppointmentRequest = z.infer<typeof dentalinkUpdateAppointmentRequestSchema>;

/**
 * A RUT as Dentalink's `eq` filter needs it: no dots or spaces, a hyphen before the check digit, uppercase K
 * (docs/research/dentalink-whatsapp-chile.md §1.2, gloory's `formatearRut`). Not a validation: that is `domain/rut.ts`'s job once it exists.
 */
export function canonicalRut(value: string): string {
  const compact = value.replace(/[.\s-]/g, "").toUpperCase();
  if (compact.length < 2) return compact;
  return `${compact.slice(0, -1)}-${compact.slice(-1)}`;
}
