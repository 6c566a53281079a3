import { clinicDate } from "./clinic-time";
import { formatCLP, formatChileanPhone, formatClinicTime, formatDateWithWeekday } from "./format";
import { templateContent, type WhatsAppTemplateContent } from "./whatsapp-templates";

/** The appointment events that send WhatsApp messages (to the patient and the clinic). */
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

const PATIENT_TEMPLATE = {
  booked: "appointmentBookedPatient",
  rescheduled: "appointmentRescheduledPatient",
  cancelled: "appointmentCancelledPatient",
} as const;

/** The patient's message as the approved template of its event (`cita_agendada_paciente`…). */
export function patientAppointmentTemplate(facts: AppointmentMessageFacts): WhatsAppTemplateContent {
  const { date, time } = when(facts.startsAt);
  return templateContent(PATIENT_TEMPLATE[facts.event], [
    facts.patient.firstName,
    facts.treatment,
    facts.dentist,
    date,
    time,
    facts.clinicName,
  ]);
}

const CLINIC_HEADLINE: Record<AppointmentEvent, string> = {
  booked: "Nueva cita agendada en línea",
  rescheduled: "Cita reprogramada en línea",
  cancelled: "Cita cancelada en línea",
};

/** The clinic's notice: the event, the patient's name and phone, the treatment, the dentist and the time. */
export function clinicAppointmentMessage(facts: AppointmentMessageFacts): string {
  const { date, time } = when(facts.startsAt);
  const { name, phone } = patientOf(facts);
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

function patientOf(facts: AppointmentMessageFacts) {
  return {
    name: `${facts.patient.firstName} ${facts.patient.lastName}`.trim(),
    phone: facts.patient.phone ? formatChileanPhone(facts.patient.phone) : "sin teléfono",
  };
}

/** The clinic's notice as the approved template of its event (`cita_agendada_clinica`…). */
export function clinicAppointmentTemplate(facts: AppointmentMessageFacts): WhatsAppTemplateContent {
  const { date, time } = when(facts.startsAt);
  const { name, phone } = patientOf(facts);
  const who = [name, phone, facts.treatment, facts.dentist];
  if (facts.event === "rescheduled") {
    const before = facts.previousStartsAt ? when(facts.previousStartsAt) : { date: "-", time: "-" };
    return templateContent("appointmentRescheduledClinic", [...who, before.date, before.time, date, time]);
  }
  if (facts.event === "cancelled") {
    const fee = facts.fee ? formatCLP(facts.fee) : "sin cargo";
    return templateContent("appointmentCancelledClinic", [...who, date, time, fee]);
  }
  return templateContent("appointmentBookedClinic", [...who, date, time]);
}
