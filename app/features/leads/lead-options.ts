import type { budgets, treatments, urgencies } from "~/domain/lead-scoring";

/** Labels of the lead form's choices (client-safe, no zod). */
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
