/**
 * Replies of the landing page's floating helper "Rio" (implants, prices, appointments, veneers, pain — each ending
 * with an offer of a free evaluation or specialist contact — and a helpful default). Pure.
 */
import { hasAnyKeyword, normalizeForMatching } from "./keyword-match";
import { REMINDER_NOTICE } from "./reminder-schedule";

export type HelperTopic = "pain" | "implants" | "veneers" | "prices" | "appointments" | "default";

export interface HelperFacts {
  phone: string;
  mobile: string;
  hours: string;
  emergencyNumber: string;
}

export interface HelperReply {
  topic: HelperTopic;
  text: string;
}

// Pain comes first: someone in pain who also asks about prices needs the urgent answer. Whole words (keyword-match.ts):
// a trailing * is a stem.
const topics: ReadonlyArray<{ topic: Exclude<HelperTopic, "default">; keywords: readonly string[] }> = [
  {
    topic: "pain",
    keywords: ["dolor*", "duele", "duelen", "urgencia*", "emergencia*", "sangra*", "hinchad*", "hinchazon"],
  },
  { topic: "implants", keywords: ["implante*"] },
  { topic: "veneers", keywords: ["carilla*", "blanqueamiento*", "sonrisa*"] },
  {
    topic: "prices",
    keywords: [
      "precio",
      "precios",
      "costo",
      "costos",
      "cuanto",
      "cuanta",
      "valor",
      "valores",
      "vale",
      "presupuesto*",
      "pagar",
      "pago",
      "pagos",
    ],
  },
  {
    topic: "appointments",
    keywords: ["cita*", "agend*", "hora", "horas", "reserva*", "turno*"],
  },
];

export function helperTopic(message: string): HelperTopic {
  const normalized = normalizeForMatching(message);
  return topics.find(({ keywords }) => hasAnyKeyword(normalized, keywords))?.topic ?? "default";
}

export function helperReply(message: string, facts: HelperFacts): HelperReply {
  const topic = helperTopic(message);
  return { topic, text: replyTexts[topic](facts) };
}

const replyTexts: Record<HelperTopic, (facts: HelperFacts) => string> = {
  implants: (facts) =>
    "Los implantes dentales reemplazan la raíz de un diente perdido con un tornillo de titanio sobre el que se " +
    "fija una corona. Planificamos cada caso con escáner 3D e IA para elegir la posición más segura; el proceso " +
    "suele tomar de 3 a 6 meses, según la oseointegración. ¿Quieres una evaluación gratuita con nuestro " +
    `especialista en implantes? Déjanos tus datos o llámanos al ${facts.phone}.`,
  prices: (facts) =>
    "El valor depende del diagnóstico: cada plan se entrega con un presupuesto detallado, válido por 30 días, y " +
    "con opciones de pago en cuotas. La primera evaluación es gratuita y en ella te entregamos el presupuesto " +
    `exacto. ¿Te agendamos una evaluación gratuita? También puedes escribirnos por WhatsApp al ${facts.mobile}.`,
  appointments: (facts) =>
    `Atendemos ${facts.hours}. Puedes pedir tu hora completando el formulario de esta página, llamando al ` +
    `${facts.phone} o escribiendo por WhatsApp al ${facts.mobile}. Te recordaremos la cita con ${REMINDER_NOTICE} de ` +
    "anticipación. ¿Quieres que un especialista te contacte para agendar tu evaluación gratuita?",
  veneers: (facts) =>
    "Las carillas son láminas delgadas de cerámica o resina que corrigen color, forma y pequeñas separaciones. " +
    "Con diseño digital de sonrisa puedes ver una simulación del resultado antes de empezar, y si solo buscas " +
    "un tono más claro, el blanqueamiento puede ser suficiente. ¿Agendamos una evaluación gratuita para ver qué " +
    `te conviene? Llámanos al ${facts.phone}.`,
  pain: (facts) =>
    "Siento que tengas dolor. Mientras tanto: aplica frío por fuera de la mejilla (15 minutos sí, 15 minutos no), " +
    "evita alimentos muy calientes o fríos y toma analgésicos solo según indicación médica. Si hay hinchazón " +
    `importante, sangrado abundante o un golpe fuerte, llama ahora al ${facts.phone}; fuera de horario, al ` +
    `${facts.emergencyNumber} (SAMU). ¿Quieres que un especialista te contacte hoy mismo?`,
  default: (facts) =>
    "¡Hola! Soy Rio, el asistente de la clínica. Puedo ayudarte con implantes dentales, carillas y estética, " +
    "precios, o agendar una hora. Cuéntame qué necesitas, o agenda una evaluación gratuita y un especialista te " +
    `contactará. También puedes llamarnos al ${facts.phone}.`,
};

/** The floating helper's WhatsApp link: its prefilled message. */
export const WHATSAPP_PREFILLED_MESSAGE =
  "Hola, me gustaría recibir información sobre los tratamientos de la clínica.";
