import type { budgets, LeadLevel, treatments, urgencies } from "./lead-scoring";

/** Spanish labels of a lead's stored values (client-safe, no zod): the forms, the staff pages, the messages. */

export const treatmentLabels: Record<(typeof treatments)[number], string> = {
  implantes: "Implantes dentales",
  estetica: "Estética dental y facial",
  ortodoncia: "Ortodoncia",
  evaluacion: "Evaluación general",
};

export const urgencyLabels: Record<(typeof urgencies)[number], string> = {
  inmediato: "Lo antes posible",
  "1-mes": "Dentro de 1 mes",
  "3-meses": "En 3 meses",
  evaluando: "Solo estoy evaluando",
};

export const budgetLabels: Record<(typeof budgets)[number], string> = {
  bajo: "Hasta $500.000",
  medio: "$500.000 a $1.500.000",
  alto: "Más de $1.500.000",
  consultar: "Prefiero consultarlo",
};

export const leadLevels = ["hot", "warm", "cold"] as const satisfies readonly LeadLevel[];

export const leadLevelLabels: Record<LeadLevel, string> = {
  hot: "Caliente",
  warm: "Tibio",
  cold: "Frío",
};

/** Where leads come from: the landing form, the guided assistant, WhatsApp, social networks. */
export const leadSources = ["web", "asistente", "whatsapp", "social"] as const;
export type LeadSource = (typeof leadSources)[number];

export const leadSourceLabels: Record<LeadSource, string> = {
  web: "Web",
  asistente: "Asistente virtual",
  whatsapp: "WhatsApp",
  social: "Redes sociales",
};

/** A stored value without a label (a new source, say) is shown as it is. */
export function labelOf(labels: Record<string, string>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : value;
}
