/** Lead scoring: points per answer and the thresholds of the hot, warm and cold levels. Pure. */

export const treatments = ["implantes", "estetica", "ortodoncia", "evaluacion"] as const;
export const urgencies = ["inmediato", "1-mes", "3-meses", "evaluando"] as const;
export const budgets = ["bajo", "medio", "alto", "consultar"] as const;

export type Treatment = (typeof treatments)[number];
export type Urgency = (typeof urgencies)[number];
export type Budget = (typeof budgets)[number];
export type LeadLevel = "hot" | "warm" | "cold";

export interface LeadScoringInput {
  urgency: Urgency;
  budget: Budget;
  treatment: Treatment;
  phone?: string | null;
  email?: string | null;
  message?: string | null;
}

export interface LeadScore {
  score: number;
  level: LeadLevel;
  reasons: string[];
}

export const HOT_THRESHOLD = 70;
export const WARM_THRESHOLD = 40;
const DETAILED_MESSAGE_LENGTH = 50;

interface Rule {
  applies: (lead: LeadScoringInput) => boolean;
  points: number;
  reason: string;
}

const present = (value: string | null | undefined) => Boolean(value && value.trim());

const rules: readonly Rule[] = [
  { applies: (lead) => lead.urgency === "inmediato", points: 30, reason: "Necesidad inmediata" },
  { applies: (lead) => lead.urgency === "1-mes", points: 20, reason: "Interés a corto plazo" },
  {
    applies: (lead) => lead.budget === "alto" || lead.budget === "medio",
    points: 25,
    reason: "Presupuesto adecuado",
  },
  {
    applies: (lead) => lead.treatment === "implantes" || lead.treatment === "estetica",
    points: 20,
    reason: "Tratamiento de alto valor",
  },
  {
    applies: (lead) => present(lead.phone) && present(lead.email),
    points: 15,
    reason: "Datos de contacto completos",
  },
  {
    applies: (lead) => (lead.message?.trim().length ?? 0) > DETAILED_MESSAGE_LENGTH,
    points: 10,
    reason: "Consulta detallada",
  },
];

export function clampScore(points: number): number {
  return Math.min(100, Math.max(0, Math.round(points)));
}

export function levelForScore(score: number): LeadLevel {
  if (score >= HOT_THRESHOLD) return "hot";
  if (score >= WARM_THRESHOLD) return "warm";
  return "cold";
}

export function scoreLead(lead: LeadScoringInput): LeadScore {
  const matched = rules.filter((rule) => rule.applies(lead));
  const score = clampScore(matched.reduce((sum, rule) => sum + rule.points, 0));
  return { score, level: levelForScore(score), reasons: matched.map((rule) => rule.reason) };
}

/** The follow-up promise shown to the person once the lead is stored: each level's response time. */
export function followUpPromise(level: LeadLevel): { title: string; detail: string } {
  switch (level) {
    case "hot":
      return {
        title: "¡Recibimos tu solicitud! Te llamaremos dentro de los próximos 15 minutos.",
        detail: "Tu caso es prioritario: un asesor te contactará de inmediato en horario de atención.",
      };
    case "warm":
      return {
        title: "¡Recibimos tu solicitud! Te contactaremos dentro de 2 a 4 horas.",
        detail: "Un asesor revisará tu consulta y te llamará o escribirá por WhatsApp.",
      };
    case "cold":
      return {
        title: "¡Recibimos tu solicitud! Te contactaremos dentro de 24 a 48 horas.",
        detail: "Mientras tanto, puedes revisar nuestras guías gratuitas en el blog.",
      };
  }
}
