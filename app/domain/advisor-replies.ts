import { cancellationWording } from "./appointment-policy";
import { hasAnyKeyword, normalizeForMatching } from "./keyword-match";
import { REMINDER_NOTICE } from "./reminder-schedule";

/**
 * The patient portal's virtual advisor (ADR 006): five rules in order, first match wins,
 * case- and accent-insensitive substring match. Hours come from the clinic's facts (DESIGN decision 7), not the
 * product brief's conflicting 8:00–20:00. Pure.
 */
export type AdvisorReplyType = "appointment" | "emergency" | "general";

export interface AdvisorFacts {
  clinicName: string;
  phone: string;
  whatsapp: string;
  email: string;
  address: string;
  hours: string;
  saturday: string;
  website: string;
  emergencyNumber: string;
}

export interface AdvisorReply {
  type: AdvisorReplyType;
  content: string;
}

const rules: ReadonlyArray<{ keywords: readonly string[]; reply: (facts: AdvisorFacts) => AdvisorReply }> = [
  {
    // spec order kept (citas first); whole words, a trailing * is a stem (keyword-match.ts)
    keywords: ["cita*", "agend*", "hora", "horas"],
    reply: (facts) => ({
      type: "appointment",
      content: [
        "📅 Información sobre citas",
        "",
        `• Puedes agendar, reprogramar o cancelar en la sección «Mis Citas» de este portal, o llamando al ${facts.phone}.`,
        `• Horario de atención: ${facts.hours}. ${facts.saturday}.`,
        `• Confirma tu cita hasta ${REMINDER_NOTICE} antes, por teléfono o desde «Mis Citas».`,
        `• ${cancellationWording.freeNoticeAtLeast}`,
        "• Te enviaremos recordatorios automáticos por WhatsApp.",
      ].join("\n"),
    }),
  },
  {
    keywords: ["dolor*", "duele", "duelen", "emergencia*", "urgencia*"],
    reply: (facts) => ({
      type: "emergency",
      content: [
        "🚨 Si tienes una urgencia dental",
        "",
        `Llama ahora a la clínica: ${facts.phone}. Dirección: ${facts.address}.`,
        `Fuera de horario, ante una emergencia grave, llama al ${facts.emergencyNumber} (SAMU).`,
        "",
        "Mientras tanto:",
        "• Aplica hielo por fuera de la cara: 15 minutos sí, 15 minutos no.",
        "• Toma analgésicos solo según indicación médica.",
        "• Evita alimentos muy calientes o muy fríos.",
        "• No apliques calor directo en la zona.",
        "",
        "Llama de inmediato si tienes: dolor intenso, hinchazón importante de la cara, sangrado abundante o un golpe (trauma) dental.",
      ].join("\n"),
    }),
  },
  {
    // The spec's words, and the ones its own menu invites ("cuánto cuesta"): asking what something costs in the
    // words the menu used must not answer with the menu again.
    keywords: [
      "tratamiento*",
      "precio",
      "precios",
      "costo",
      "costos",
      "cuesta",
      "cuestan",
      "valor",
      "valores",
    ],
    reply: (facts) => ({
      type: "general",
      content: [
        "🦷 Nuestros tratamientos",
        "",
        "• Limpieza y prevención",
        "• Tapaduras y restauraciones",
        "• Endodoncia (tratamiento de conducto)",
        "• Estética dental y blanqueamiento",
        "• Odontopediatría",
        "",
        "La primera evaluación es gratuita: en ella te entregamos un diagnóstico y un presupuesto detallado (válido por 30 días).",
        `Horario: ${facts.hours}.`,
      ].join("\n"),
    }),
  },
  {
    keywords: ["contacto*", "telefono*", "direccion*"],
    reply: (facts) => ({
      type: "general",
      content: [
        `📍 Datos de contacto de ${facts.clinicName}`,
        "",
        `• Teléfono: ${facts.phone}`,
        `• WhatsApp: ${facts.whatsapp}`,
        `• Correo: ${facts.email}`,
        `• Dirección: ${facts.address}`,
        `• Horario: ${facts.hours}`,
        `• ${facts.saturday}`,
        `• Sitio web: ${facts.website}`,
      ].join("\n"),
    }),
  },
];

function helpMenu(): AdvisorReply {
  return {
    type: "general",
    content: [
      "Puedo ayudarte con estos temas. Escribe una de estas palabras:",
      "",
      "• CITAS: agendar, confirmar o cancelar",
      "• TRATAMIENTOS: qué hacemos y cuánto cuesta",
      "• CONTACTO: teléfono, WhatsApp y dirección",
      "• EMERGENCIA: qué hacer si tienes dolor",
    ].join("\n"),
  };
}

export function advisorReply(message: string, facts: AdvisorFacts): AdvisorReply {
  const normalized = normalizeForMatching(message);
  const rule = rules.find(({ keywords }) => hasAnyKeyword(normalized, keywords));
  return rule ? rule.reply(facts) : helpMenu();
}

export function advisorWelcome(firstName: string): AdvisorReply {
  return {
    type: "general",
    content: `¡Hola ${firstName}! Soy tu asesor virtual. Puedo ayudarte con citas, tratamientos, datos de contacto o qué hacer ante una urgencia. ¿En qué te ayudo?`,
  };
}

/** Shown if a reply cannot be produced. */
export const ADVISOR_FAILURE_MESSAGE =
  "Lo siento, hubo un error. Por favor intenta nuevamente o contacta directamente con la clínica.";

export const ADVISOR_MAX_MESSAGE_LENGTH = 2000;
