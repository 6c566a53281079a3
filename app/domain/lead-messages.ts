import { formatChileanPhone, whatsappNumber } from "./format";
import { PROFILING_OBJECTED_LABEL } from "./consent-rules";
import type { LeadLevel } from "./lead-scoring";
import { templateContent, type WhatsAppTemplateContent } from "./whatsapp-templates";

/** What the two WhatsApp messages of a new lead say (the advisor notice and the patient's confirmation). */
export interface LeadMessageFacts {
  /** The clinic's short name, signing the patient's message ("Río Clínica"). */
  clinicName: string;
  /** The clinic's hours as messages state them ("Lun-Vie 9:00-18:00", from `config/clinic.ts`). */
  clinicHours: string;
  name: string;
  /** E.164, as leads are stored. */
  phone: string;
  /** The treatment's label ("Implantes dentales"). */
  treatment: string;
  level: LeadLevel;
  /** The level's label ("Caliente"). */
  levelLabel: string;
  score: number;
  /** Where the lead came from ("Web", "Asistente virtual"). */
  source: string;
  /**
   * The person objected to profiling (art. 8 bis, ADR 037): no level or score is stated, and the patient is promised
   * the clinic's standard response time (the 'warm' one), neither the priority nor the slowest.
   */
  profilingObjected?: boolean;
}

/** The advisor notice's level and score for an unscored lead. */
const UNSCORED_LEVEL = PROFILING_OBJECTED_LABEL;

/** The advisor's notice to the clinic's WhatsApp number: who, how to reach them, what they want and how hot. */
export function advisorLeadMessage(facts: LeadMessageFacts): string {
  return [
    `Nuevo lead (${facts.source}).`,
    `Nombre: ${facts.name.trim().replace(/\s+/g, " ")}.`,
    `Teléfono: ${formatChileanPhone(facts.phone)}.`,
    `Tratamiento: ${facts.treatment}.`,
    facts.profilingObjected
      ? `Nivel: ${UNSCORED_LEVEL}.`
      : `Nivel: ${facts.levelLabel} (${facts.score} puntos).`,
  ].join("\n");
}

/** The advisor's notice as the approved template `lead_aviso_asesor` (outside the clinic number's 24-hour window). */
export function advisorLeadTemplate(facts: LeadMessageFacts): WhatsAppTemplateContent {
  return templateContent("leadAdvisor", [
    facts.source,
    facts.name,
    formatChileanPhone(facts.phone),
    facts.treatment,
    facts.profilingObjected ? UNSCORED_LEVEL : facts.levelLabel,
    // "(sin puntos)" in the approved template's sentence.
    facts.profilingObjected ? "sin" : facts.score,
  ]);
}

/** The follow-up promise of each level (the scoring thresholds' response times), as the end of a sentence. */
const PROMISE: Record<LeadLevel, string> = {
  hot: "te llamará en los próximos 15 minutos: tu caso es prioritario y te contactaremos de inmediato",
  warm: "te contactará dentro de 2 a 4 horas",
  cold: "te contactará dentro de 24 a 48 horas",
};

function promiseOf(facts: LeadMessageFacts): string {
  return PROMISE[facts.profilingObjected ? "warm" : facts.level];
}

/** The patient's confirmation: thanks, the level's follow-up promise within the clinic's hours, and the clinic. */
export function patientLeadMessage(facts: LeadMessageFacts): string {
  const firstName = firstNameOf(facts.name);
  return (
    `Hola ${firstName}, recibimos tu consulta sobre ${facts.treatment}. ` +
    `Un asesor ${promiseOf(facts)} (horario de atención: ${facts.clinicHours}). ${facts.clinicName}.`
  );
}

/** The patient's confirmation as the approved template `lead_confirmacion_paciente`. */
export function patientLeadTemplate(facts: LeadMessageFacts): WhatsAppTemplateContent {
  return templateContent("leadPatient", [
    firstNameOf(facts.name),
    facts.treatment,
    promiseOf(facts),
    facts.clinicHours,
    facts.clinicName,
  ]);
}

/** The first word of a name, how the messages and the staff's cards greet a person. */
export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

/** A wa.me link that opens a chat with `phone` (E.164) with `text` already typed. */
export function waMeLink(phone: string, text: string): string {
  return `https://wa.me/${whatsappNumber(phone)}?text=${encodeURIComponent(text)}`;
}

/** The staff's 'WhatsApp' action on a lead: a chat with a Spanish greeting that names the lead and the treatment. */
export function leadWhatsappLink(
  phone: string,
  name: string,
  treatmentLabel: string,
  clinicName: string,
): string {
  const text =
    `Hola ${firstNameOf(name)}, te saluda el equipo de ${clinicName}. ` +
    `Recibimos tu consulta sobre ${treatmentLabel.toLowerCase()} y queremos ayudarte. ` +
    "¿Cuándo te acomoda que conversemos?";
  return waMeLink(phone, text);
}
