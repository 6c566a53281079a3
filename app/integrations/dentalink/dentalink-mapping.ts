import type { AppointmentStatus } from "~/domain/appointment-status";
import { IntegrationError } from "../http.server";
import {
  DENTALINK_SYSTEM,
  type DentalinkAppointmentRecord,
  type DentalinkAppointmentStateRecord,
  type DentalinkBranchRecord,
  type DentalinkDentistRecord,
  type DentalinkFileRecord,
  type DentalinkId,
  type DentalinkPatientRecord,
  type DentalinkPaymentRecord,
  type DentalinkTreatmentRecord,
} from "./dentalink-schemas";

/**
 * The one place where Dentalink's records become the portal's shapes (DESIGN decision 12, ADR 017):
 * which field variant wins, the defaults ('Consultorio 1', progress 0), CLP amounts as integers. A record that
 * lacks what the portal cannot do without (an id, a name, a date) is an `IntegrationError` with code
 * `INVALID_RESPONSE` naming the record kind and the missing fields — never their values (personal data).
 */

export const DEFAULT_OFFICE = "Consultorio 1";

export interface DentalinkPatient {
  id: string;
  rut: string | null;
  firstName: string;
  lastName: string;
  /** First and last name together, as the record shows it (spec: name or nombre). */
  name: string;
  email: string | null;
  phone: string | null;
  birthDate: string | null;
  address: string | null;
  city: string | null;
}

export interface DentalinkAppointment {
  id: string;
  patientId: string | null;
  /** AAAA-MM-DD */
  date: string;
  /** HH:MM */
  time: string;
  endTime: string | null;
  durationMinutes: number | null;
  /** The clinic's own state name as Dentalink shows it ("Confirmado", "Anulado"…), null when absent. */
  status: string | null;
  /** The portal's status family of that state, for badges and rules. */
  statusKind: AppointmentStatus;
  stateId: string | null;
  treatment: string | null;
  dentist: string | null;
  dentistId: string | null;
  office: string;
  branch: string | null;
  branchId: string | null;
  comment: string | null;
}

export interface DentalinkPayment {
  id: string;
  date: string | null;
  /** Chilean pesos, an integer. */
  amountClp: number;
  concept: string | null;
  status: string | null;
  method: string | null;
}

export interface DentalinkTreatment {
  id: string;
  name: string;
  description: string | null;
  status: string | null;
  startDate: string | null;
  endDate: string | null;
  /** 0–100. */
  progress: number;
  dentist: string | null;
  branch: string | null;
  /** The budget's value in whole pesos (`total`), null when Dentalink does not send it. */
  totalClp: number | null;
  /** Paid towards the budget (`abonado`), null when absent. */
  paidClp: number | null;
  /** What is still owed on the budget (never below 0), null when Dentalink sends neither figure (see `budgetBalance`). */
  balanceClp: number | null;
}

export interface DentalinkDocument {
  id: string;
  name: string;
  type: string | null;
  date: string | null;
  url: string | null;
}

export type DentalinkXray = DentalinkDocument;

export interface DentalinkDentist {
  id: string;
  name: string;
  specialty: string | null;
  /** The agenda's slot length; a booking's duration must fit it (docs/research/dentalink-whatsapp-chile.md §1.2). */
  intervalMinutes: number | null;
  active: boolean;
}

export interface DentalinkBranch {
  id: string;
  name: string;
  address: string | null;
  city: string | null;
  phone: string | null;
  active: boolean;
}

export interface DentalinkAppointmentState {
  id: string;
  name: string;
  kind: AppointmentStatus;
  /** The state that cancels an appointment (`anulacion`, or a name that says so). */
  cancels: boolean;
  active: boolean;
}

// ---- Helpers --------------------------------------------------------------------------------------------------

type Kind =
  | "patient"
  | "appointment"
  | "payment"
  | "treatment"
  | "document"
  | "dentist"
  | "branch"
  | "appointment state";

function invalid(kind: Kind, missing: string[]): IntegrationError {
  return new IntegrationError({
    system: DENTALINK_SYSTEM,
    // The record came in a successful answer: 200, so nothing retries it or counts it against the service.
    status: 200,
    body: { record: kind, missing },
    code: "INVALID_RESPONSE",
    message: `${DENTALINK_SYSTEM}: a ${kind} record without ${missing.join(", ")}`,
  });
}

/** The first value that is present and not blank. */
function first<T>(...values: Array<T | null | undefined>): T | null {
  for (const value of values) {
    if (value === null || value === undefined) continue;
    if (typeof value === "string" && value.trim() === "") continue;
    return value;
  }
  return null;
}

function text(...values: Array<string | null | undefined>): string | null {
  const value = first(...values);
  return value === null ? null : value.trim();
}

function id(...values: Array<DentalinkId | null | undefined>): string | null {
  const value = first(...values);
  return value === null ? null : String(value).trim();
}

/** Dentalink's 0/1 flags (also booleans and "0"/"1", "si"/"no"); null when absent or unreadable. */
export function flag(value: number | boolean | string | null | undefined): boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  const lower = value.trim().toLowerCase();
  if (["1", "true", "si", "sí", "s"].includes(lower)) return true;
  if (["0", "false", "no", "n", ""].includes(lower)) return false;
  return null;
}

function numberOf(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  const parsed = Number(trimmed.replace(",", "."));
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * A peso amount as an integer: a number (decimals rounded), or text as Chilean systems write it — `45000`,
 * `45000.00`, `$45.000`, `45.000,50`. Dots followed by three digits are thousands separators; a comma is the
 * decimal mark. Null when it is not an amount.
 */
export function parseClp(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? Math.round(value) : null;
  let written = value
    .trim()
    .replace(/^\$\s*/, "")
    .replace(/\s*CLP$/i, "");
  const negative = written.startsWith("-");
  if (negative)
    written = written
      .slice(1)
      .trim()
      .replace(/^\$\s*/, "");
  let amount: number;
  if (/^\d+(\.\d{1,2})?$/.test(written)) amount = Number(written);
  else if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(written) || /^\d+(,\d+)?$/.test(written)) {
    amount = Number(written.replace(/\./g, "").replace(",", "."));
  } else return null;
  if (!Number.isFinite(amount)) return null;
  return Math.round(negative ? -amount : amount);
}

function fold(value: string): string {
  return value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/**
 * The portal's status family of a clinic-configured state name. Dentalink's states are named per clinic (and
 * their ids differ between clinics, docs/research/dentalink-whatsapp-chile.md §1.2), so only the words are read: "Anulado"/"Cancelada" cancel,
 * "No asiste" is a no-show, "Atendido"/"Completado" completed, "En box"/"En atención" in progress, "Confirmado"
 * (but not "No confirmado") confirmed; anything else is a scheduled appointment.
 */
export function appointmentStateKind(name: string | null, cancels?: boolean | null): AppointmentStatus {
  if (cancels) return "cancelled";
  if (!name) return "scheduled";
  const words = fold(name);
  if (/anulad|cancelad|cancelled|canceled|suspendid/.test(words)) return "cancelled";
  if (/no asist|no se present|inasist|no_show|no show/.test(words)) return "no_show";
  if (/atendid|completad|finalizad|realizad|completed/.test(words)) return "completed";
  if (/en box|en atencion|en sala|en proceso|in progress|in_progress/.test(words)) return "in_progress";
  if (/no confirm|sin confirm|por confirm|pendiente/.test(words)) return "scheduled";
  if (/confirmad|confirmed/.test(words)) return "confirmed";
  return "scheduled";
}

// ---- Records --------------------------------------------------------------------------------------------------

export function mapPatient(record: DentalinkPatientRecord): DentalinkPatient {
  const patientId = id(record.id, record.id_paciente, record.patient_id);
  const given = text(record.nombre, record.name, record.first_name);
  const missing = [...(patientId ? [] : ["id"]), ...(given ? [] : ["name"])];
  if (!patientId || !given) throw invalid("patient", missing);
  const lastName = text(record.apellidos, record.apellido, record.last_name) ?? "";
  return {
    id: patientId,
    rut: text(record.rut),
    firstName: given,
    lastName,
    name: lastName ? `${given} ${lastName}` : given,
    email: text(record.email, record.correo, record.email_paciente),
    phone: text(record.celular, record.telefono, record.phone),
    birthDate: record.fecha_nacimiento ?? record.birth_date ?? null,
    address: text(record.direccion, record.address),
    city: text(record.comuna, record.ciudad, record.city),
  };
}

export function mapAppointment(record: DentalinkAppointmentRecord): DentalinkAppointment {
  const appointmentId = id(record.id, record.appointment_id, record.id_cita);
  const date = record.fecha ?? record.date ?? null;
  const time = record.hora_inicio ?? record.hora ?? record.time ?? null;
  const missing = [...(appointmentId ? [] : ["id"]), ...(date ? [] : ["date"]), ...(time ? [] : ["time"])];
  if (!appointmentId || !date || !time) throw invalid("appointment", missing);
  const status = text(record.estado_cita, record.estado, record.status);
  const duration = numberOf(record.duracion);
  return {
    id: appointmentId,
    patientId: id(record.id_paciente),
    date,
    time,
    endTime: record.hora_fin ?? null,
    durationMinutes: duration === null ? null : Math.round(duration),
    status,
    statusKind: appointmentStateKind(status, flag(record.estado_anulacion)),
    stateId: id(record.id_estado),
    treatment: text(record.nombre_tratamiento, record.tratamiento, record.treatment),
    dentist: text(record.nombre_dentista, record.doctor, record.dentist),
    dentistId: id(record.id_dentista),
    // The office is `consultorio` (or `office`), default 'Consultorio 1'. Dentalink calls the treatment room a sillón.
    office: text(record.consultorio, record.office, record.nombre_sillon) ?? DEFAULT_OFFICE,
    branch: text(record.nombre_sucursal),
    branchId: id(record.id_sucursal),
    comment: text(record.comentarios, record.comentario),
  };
}

export function mapPayment(record: DentalinkPaymentRecord): DentalinkPayment {
  const paymentId = id(record.id, record.payment_id, record.id_pago);
  const raw = first<number | string>(record.monto_pago, record.monto, record.amount, record.total);
  const amount = parseClp(raw);
  const missing = [...(paymentId ? [] : ["id"]), ...(amount === null ? ["amount"] : [])];
  if (!paymentId || amount === null) throw invalid("payment", missing);
  return {
    id: paymentId,
    date: record.fecha_recepcion ?? record.fecha ?? record.date ?? record.fecha_creacion ?? null,
    amountClp: amount,
    concept: text(record.concepto, record.concept),
    status: text(record.estado, record.status),
    method: text(record.medio_pago, record.metodo, record.method),
  };
}

/** A percentage clamped to 0–100 and rounded; null when absent. */
function percent(value: number | null): number | null {
  if (value === null) return null;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/**
 * A budget's pending balance: Dentalink's own `deuda` when it sends one, else `total − abonado`; never below 0 (a
 * budget paid in advance owes nothing); null when neither can be read.
 */
export function budgetBalance(
  record: Pick<DentalinkTreatmentRecord, "deuda" | "total" | "abonado">,
): number | null {
  const debt = parseClp(record.deuda);
  if (debt !== null) return Math.max(0, debt);
  const total = parseClp(record.total);
  const paid = parseClp(record.abonado);
  if (total === null || paid === null) return null;
  return Math.max(0, total - paid);
}

export function mapTreatment(record: DentalinkTreatmentRecord): DentalinkTreatment {
  const treatmentId = id(record.id, record.treatment_id, record.id_tratamiento);
  const name = text(record.nombre, record.name);
  const missing = [...(treatmentId ? [] : ["id"]), ...(name ? [] : ["name"])];
  if (!treatmentId || !name) throw invalid("treatment", missing);
  const finished = flag(record.finalizado);
  const total = numberOf(record.total);
  const done = numberOf(record.total_realizado);
  // Progress defaults to 0. Dentalink has no percentage; a finished plan is 100, and the share of
  // the plan's value already performed is the closest honest figure.
  const derived = finished ? 100 : total && total > 0 && done !== null ? (done / total) * 100 : null;
  return {
    id: treatmentId,
    name,
    description: text(record.descripcion, record.description, record.comentario),
    status:
      text(record.estado, record.status) ??
      (finished === null ? null : finished ? "completado" : "en_proceso"),
    startDate: record.fecha_inicio ?? record.start_date ?? record.fecha ?? null,
    endDate: record.fecha_fin ?? record.end_date ?? null,
    progress: percent(numberOf(first(record.progreso, record.progress))) ?? percent(derived) ?? 0,
    dentist: text(record.nombre_dentista),
    branch: text(record.nombre_sucursal),
    totalClp: parseClp(record.total),
    paidClp: parseClp(record.abonado),
    balanceClp: budgetBalance(record),
  };
}

export function mapDocument(record: DentalinkFileRecord): DentalinkDocument {
  const fileId = id(record.id, record.document_id, record.xray_id, record.id_archivo);
  const name = text(record.nombre, record.name);
  const missing = [...(fileId ? [] : ["id"]), ...(name ? [] : ["name"])];
  if (!fileId || !name) throw invalid("document", missing);
  return {
    id: fileId,
    name,
    type: text(record.tipo, record.type, record.categoria, record.category),
    date: record.fecha ?? record.date ?? record.fecha_creacion ?? null,
    url: text(record.url, record.download_url, record.image_url, record.url_descarga),
  };
}

/**
 * Whether a patient file is an x-ray (radiografía): by its type or category, else by its name. The research
 * found no x-ray endpoint, so both come from one file list (docs/research/dentalink-whatsapp-chile.md §1.2).
 */
export function isXrayFile(record: DentalinkFileRecord): boolean {
  if (record.xray_id !== null && record.xray_id !== undefined) return true;
  const pattern = /radiograf|x-?ray|\brx\b|panoramic|periapical|bite-?wing|cone beam|cbct|teleradiograf/;
  const labels = [record.tipo, record.type, record.categoria, record.category]
    .filter((value): value is string => typeof value === "string" && value.trim() !== "")
    .map(fold);
  if (labels.some((label) => pattern.test(label))) return true;
  const name = text(record.nombre, record.name);
  return name !== null && pattern.test(fold(name));
}

export function mapXray(record: DentalinkFileRecord): DentalinkXray {
  return mapDocument(record);
}

/** Splits a patient's files into documents and x-rays, each mapped. */
export function mapPatientFiles(records: readonly DentalinkFileRecord[]): {
  documents: DentalinkDocument[];
  xrays: DentalinkXray[];
} {
  const documents: DentalinkDocument[] = [];
  const xrays: DentalinkXray[] = [];
  for (const record of records) {
    if (isXrayFile(record)) xrays.push(mapXray(record));
    else documents.push(mapDocument(record));
  }
  return { documents, xrays };
}

export function mapDentist(record: DentalinkDentistRecord): DentalinkDentist {
  const dentistId = id(record.id, record.id_dentista);
  const given = text(record.nombre, record.name);
  const missing = [...(dentistId ? [] : ["id"]), ...(given ? [] : ["name"])];
  if (!dentistId || !given) throw invalid("dentist", missing);
  const lastName = text(record.apellidos);
  const interval = numberOf(record.intervalo);
  return {
    id: dentistId,
    name: lastName ? `${given} ${lastName}` : given,
    specialty: text(record.especialidad, record.specialty),
    intervalMinutes: interval === null || interval <= 0 ? null : Math.round(interval),
    active: flag(record.habilitado) ?? true,
  };
}

export function mapBranch(record: DentalinkBranchRecord): DentalinkBranch {
  const branchId = id(record.id, record.id_sucursal);
  const name = text(record.nombre, record.name);
  const missing = [...(branchId ? [] : ["id"]), ...(name ? [] : ["name"])];
  if (!branchId || !name) throw invalid("branch", missing);
  return {
    id: branchId,
    name,
    address: text(record.direccion, record.address),
    city: text(record.comuna, record.ciudad),
    phone: text(record.telefono),
    active: flag(record.habilitada) ?? true,
  };
}

export function mapAppointmentState(record: DentalinkAppointmentStateRecord): DentalinkAppointmentState {
  const stateId = id(record.id, record.id_estado);
  const name = text(record.nombre, record.name);
  const missing = [...(stateId ? [] : ["id"]), ...(name ? [] : ["name"])];
  if (!stateId || !name) throw invalid("appointment state", missing);
  const kind = appointmentStateKind(name, flag(record.anulacion));
  return { id: stateId, name, kind, cancels: kind === "cancelled", active: flag(record.habilitado) ?? true };
}

/**
 * The state to cancel with: the first enabled one flagged `anulacion` or named so (never a hard-coded id,
 * docs/research/dentalink-whatsapp-chile.md §1.2); null when the clinic has none.
 */
export function cancelledState(
  states: readonly DentalinkAppointmentState[],
): DentalinkAppointmentState | null {
  const usable = states.filter((state) => state.active);
  return usable.find((state) => state.cancels) ?? null;
}
