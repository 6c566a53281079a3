import type { Budget, Treatment, Urgency } from "~/domain/lead-scoring";

/** The test dashboard's predefined leads (expected scores as specified: 85 hot, 55 warm, 25 cold). Client-safe. */

export interface ScenarioLead {
  name: string;
  phone: string;
  email: string;
  age: string;
  treatment: Treatment;
  urgency: Urgency;
  budget: Budget;
  message: string;
}

export const scenarioKeys = ["hot", "warm", "cold"] as const;
export type ScenarioKey = (typeof scenarioKeys)[number];

export interface Scenario {
  key: ScenarioKey;
  title: string;
  description: string;
  expectedScore: number;
  lead: ScenarioLead;
}

export const testScenarios: Record<ScenarioKey, Scenario> = {
  hot: {
    key: "hot",
    title: "Lead caliente",
    description: "Urgencia inmediata, presupuesto alto, implantes; solo teléfono.",
    expectedScore: 85,
    lead: {
      name: "Carolina Vega",
      phone: "+56 9 8765 1234",
      email: "",
      age: "52",
      treatment: "implantes",
      urgency: "inmediato",
      budget: "alto",
      message:
        "Perdí dos piezas de abajo y necesito implantes lo antes posible; puedo ir esta misma semana a evaluación.",
    },
  },
  warm: {
    key: "warm",
    title: "Lead tibio",
    description: "Dentro de 1 mes, presupuesto medio, ortodoncia; solo teléfono.",
    expectedScore: 55,
    lead: {
      name: "Diego Araya",
      phone: "+56 9 7654 3210",
      email: "",
      age: "29",
      treatment: "ortodoncia",
      urgency: "1-mes",
      budget: "medio",
      message:
        "Me interesa la ortodoncia invisible; quisiera saber cuánto dura el tratamiento y las formas de pago.",
    },
  },
  cold: {
    key: "cold",
    title: "Lead frío",
    description: "Solo evaluando, prefiere consultar el presupuesto, evaluación general; teléfono y e-mail.",
    expectedScore: 25,
    lead: {
      name: "Patricia Soto",
      phone: "+56 9 6543 2109",
      email: "patricia.soto@correo.example",
      age: "41",
      treatment: "evaluacion",
      urgency: "evaluando",
      budget: "consultar",
      message:
        "Estoy comparando clínicas para una revisión general más adelante; todavía no tengo fecha definida.",
    },
  },
};
