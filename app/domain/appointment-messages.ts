import { clinicDate } from "./clinic-time";
import { formatCLP, formatChileanPhone, formatClinicTime, formatDateWithWeekday } from "./format";

/** The appointment events that send WhatsApp messages (issue 9). */
export type AppointmentEvent = "booked" | "rescheduled" | "cancelled";

export interface AppointmentMessageFacts {
  event: AppointmentEvent;
  /** The clinic's short name, signing the patient's message ("Río Clínica"). */
  clinicName: string;
  patient: { firstName: string; lastName: string; phone: string | null };
  treatment: string;
  dentist: string;
  /** The appointment's start (the new one after a reschedule). */
  startsAt: Date;
  /** The start before a reschedule. */
  previousStartsAt?: Date;
  /** A late cancellation's fee, in pesos. */
  fee?: number;
}

/** "lunes, 15 de enero de 2024" and "09:30", both on the clinic's clock (a UTC date could be the day after). */
function when(instant: Date) {
  return { date: formatDateWithWeekday(clinicDate(instant)), time: formatClinicTime(instant) };
}

const PATIENT_OUTCOME = { booked: "quedó agendada", rescheduled: "fue reprogramada" } as const;

/** The patient's short Spanish message, e.g. "Hola Ana, tu cita de Limpieza con Inés Soto quedó agendada para…". */
export function patientAppointmentMessage(facts: AppointmentMessageFacts): string {
  const { date, time } = when(facts.startsAt);
  const subject = `Hola ${facts.patient.firstName}, tu cita de ${facts.treatment} con ${facts.dentist}`;
  if (facts.event === "cancelled") {
    return `${subject} del ${date} a las ${time} fue cancelada. ${facts.clinicName}.`;
  }
  return `${subject} ${PATIENT_OUTCOME[facts.event]} para el ${date} a las ${time}. ${facts.clinicName}.`;
}

const CLINIC_HEADLINE: Record<AppointmentEvent, string> = {
  booked: "Nueva cita agendada en línea",
  rescheduled: "Cita reprogramada en línea",
  cancelled: "Cita cancelada en línea",
};

/** The clinic's notice: the event, the patient's name and phone, the treatment, the dentist and the time. */
export function clinicAppointmentMessage(facts: AppointmentMessageFacts): string {
  const { date, time } = when(facts.startsAt);
  const name = `${facts.patient.firstName} ${facts.patient.lastName}`.trim();
  const phone = facts.patient.phone ? formatChileanPhone(facts.patient.phone) : "sin teléfono";
  const lines = [
    `${CLINIC_HEADLINE[facts.event]}.`,
    `Paciente: ${name} (${phone}).`,
    `Tratamiento: ${facts.treatment}, con ${facts.dentist}.`,
  ];
  if (facts.event === "rescheduled" && facts.previousStartsAt) {
    const before = when(facts.previousStartsAt);
    lines.push(`Antes: ${before.date} a las ${before.time}.`, `Ahora: ${date} a las ${time}.`);
  } else {
    lines.push(`Fecha: ${date} a las ${time}.`);
  }
  if (facts.event === "cancelled" && facts.fee) {
    lines.push(`Cancelación tardía: cargo de ${formatCLP(facts.fee)}.`);
  }
  return lines.join("\n");
}
