import {
  classifyIntent,
  distressReply,
  emergencyReply,
  NOT_A_DIAGNOSIS,
  violatesSafety,
  type AgentIntent,
} from "~/domain/agent-safety";
import { cancellationWording } from "~/domain/appointment-policy";
import { formatChileanPhone, formatCLP } from "~/domain/format";
import { createLlmClient, type LlmClient } from "~/integrations/llm/llm-client.server";
import { MAX_CHAT_MESSAGE_LENGTH } from "~/domain/chat-limits";
import { clinicFacts, env } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { getDb } from "~/db/client.server";
import { catalogueTreatments } from "./agent-repository.server";
import { retrieve, type Passage } from "./agent-knowledge.server";
import { chargeLlmCall } from "./llm-budget.server";

/**
 * The offline virtual dentist (DESIGN decision 18): the intent decides the shape of the answer, retrieval
 * over the clinic's own content grounds it, and every answer links the pages it used. It never reads a clinical
 * record, never diagnoses and never promises an outcome.
 */
export interface AgentTurn {
  intent: AgentIntent;
  content: string;
  sources: Passage[];
  /** `urgent`: an emergency or distress, listed first in the inbox. */
  handoff?: { reason: string; summary: string; urgent: boolean };
}

const BOOKING_LINK = "[Mis Citas](/paciente/citas)";

function cite(passages: Passage[]): string {
  if (passages.length === 0) return "";
  return `\n\nFuentes de la clínica:\n${passages.map((passage) => `• [${passage.title}](${passage.url})`).join("\n")}`;
}

function snippet(passage: Passage, max = 260): string {
  const text = passage.text.replace(/^\.\s*/, "");
  return text.length > max ? `${text.slice(0, max).replace(/\s+\S*$/, "")}…` : text;
}

export function waitingForPersonText(): string {
  const clinic = clinicFacts();
  return `Una persona del equipo te responderá en este chat. Horario de atención: ${clinic.hoursLong}. ${clinic.saturday}.`;
}

/** The configured LLM and its model, or null (offline agent only). Built per env object. */
const llmByEnv = new WeakMap<object, { client: LlmClient; model: string } | null>();
function configuredLlm(): { client: LlmClient; model: string } | null {
  const current = env();
  if (!llmByEnv.has(current)) {
    llmByEnv.set(
      current,
      current.LLM_BASE_URL && current.LLM_API_KEY && current.LLM_MODEL
        ? {
            model: current.LLM_MODEL,
            client: createLlmClient({
              baseUrl: current.LLM_BASE_URL,
              apiKey: current.LLM_API_KEY,
              model: current.LLM_MODEL,
              timeoutMs: current.LLM_TIMEOUT_MS,
              maxTokens: current.LLM_MAX_TOKENS,
              maxChars: MAX_CHAT_MESSAGE_LENGTH,
            }),
          }
        : null,
    );
  }
  return llmByEnv.get(current) ?? null;
}

/** The same rules as the offline agent, for the model (DESIGN decision 18). */
function systemPrompt(passages: Passage[]): string {
  const clinic = clinicFacts();
  return [
    `Eres el Dentista Virtual IA de ${clinic.name}, en Chile. Respondes en español de Chile, breve y amable.`,
    "Reglas: no diagnosticas, no prometes ni predices resultados, no interpretas imágenes ni radiografías;",
    `ante dolor intenso, sangrado, hinchazón o trauma indicas llamar a la clínica (${formatChileanPhone(clinic.phone)}) o al ${clinic.emergencyNumber};`,
    "para agendar, enlaza [Mis Citas](/paciente/citas). Usa solo la información de las fuentes y enlázalas con",
    "[título](ruta) usando exactamente sus rutas; si no sabes, ofrece hablar con una persona.",
    "",
    "Fuentes:",
    ...passages.map((passage) => `- [${passage.title}](${passage.url}): ${passage.text.slice(0, 700)}`),
  ].join("\n");
}

/**
 * The reply: the LLM when configured (streamed; `onToken` sees each piece), with the retrieved passages as context;
 * a provider error, a timeout, an unsafe answer or a spent budget (llm-budget.server.ts) falls back to the offline
 * agent. The fixed safety answers (emergency, distress, a person, booking, prices) never go to the model.
 */
export async function agentTurn(input: {
  text: string;
  /**
   * What the LLM provider reads instead of `text`: the caller redacts identifying data when the person did not
   * consent to the AI chat (ADR 037). Default: `text`.
   */
  llmText?: string;
  roomId?: string;
  /** The guest's address (rate-limit key), for the per-address LLM budget. */
  address?: string;
  onToken?: (token: string) => void;
}): Promise<AgentTurn> {
  const offline = await offlineTurn(input);
  const llm = configuredLlm();
  if (!llm || offline.intent === "emergency" || offline.intent === "distress" || offline.intent === "human") {
    return offline;
  }
  if (offline.intent === "booking" || offline.intent === "prices" || offline.intent === "hours")
    return offline;
  if (!(await chargeLlmCall(input.address, llm.model))) {
    logger.info({ roomId: input.roomId }, "LLM budget spent; the offline agent answers");
    return offline;
  }
  const passages = offline.sources.length ? offline.sources : await retrieve(input.text, clinicFacts(), 3);
  try {
    const content = await llm.client.streamChat(
      [
        { role: "system", content: systemPrompt(passages) },
        { role: "user", content: input.llmText ?? input.text },
      ],
      input.onToken,
    );
    if (!content.trim() || violatesSafety(content)) throw new Error("empty or unsafe LLM answer");
    return {
      intent: offline.intent,
      content: content.trim().slice(0, MAX_CHAT_MESSAGE_LENGTH),
      sources: passages,
    };
  } catch (error) {
    logger.warn({ err: error, roomId: input.roomId }, "LLM reply failed; using the offline agent");
    return offline;
  }
}

async function offlineTurn(input: { text: string; roomId?: string }): Promise<AgentTurn> {
  const clinic = clinicFacts();
  const safety = {
    phone: formatChileanPhone(clinic.phone),
    emergencyNumber: clinic.emergencyNumber,
    hours: clinic.hoursLong,
  };
  const intent = classifyIntent(input.text);
  const summaryOf = (label: string) => `${label}. El paciente escribió: «${input.text.slice(0, 300)}»`;

  switch (intent) {
    case "emergency":
      return {
        intent,
        content: emergencyReply(safety),
        sources: [],
        handoff: {
          reason: "Posible urgencia",
          summary: summaryOf("Posible urgencia dental"),
          urgent: true,
        },
      };
    case "distress":
      return {
        intent,
        content: distressReply(safety),
        sources: [],
        handoff: {
          reason: "Paciente angustiado",
          summary: summaryOf("Señales de angustia"),
          urgent: true,
        },
      };
    case "human":
      return {
        intent,
        content: "Te comunico con una persona del equipo.",
        sources: [],
        handoff: {
          reason: "El paciente pidió hablar con una persona",
          summary: summaryOf("Pide una persona"),
          urgent: false,
        },
      };
    case "booking":
      return {
        intent,
        content: [
          `Puedes agendar, reprogramar o cancelar tu hora en ${BOOKING_LINK}: eliges el tratamiento, el día y la hora disponibles.`,
          `Si prefieres, llámanos al ${safety.phone} (${clinic.hoursLong}). ${cancellationWording.freeNotice}`,
        ].join("\n"),
        sources: [],
      };
    case "prices": {
      const treatments = await catalogueTreatments(await getDb());
      const lines = treatments.map(
        (treatment) => `• ${treatment.name}: desde ${formatCLP(treatment.basePrice)}`,
      );
      return {
        intent,
        content: [
          "Estos son los precios base de nuestro catálogo:",
          ...lines,
          "",
          "El valor final depende de tu caso y se define en la evaluación, con un presupuesto detallado.",
          `Puedes agendar la evaluación en ${BOOKING_LINK}.`,
        ].join("\n"),
        sources: [],
      };
    }
    case "hours":
      return {
        intent,
        content: `Atendemos ${clinic.hoursInSentence}. ${clinic.saturday}. Dirección: ${clinic.address}. Teléfono: ${safety.phone}.`,
        sources: [],
      };
    case "xray": {
      const sources = await retrieve("inteligencia artificial radiografía diagnóstico dental", clinic, 2);
      return {
        intent,
        content: [
          "No puedo analizar radiografías en este chat ni darte un diagnóstico a partir de una imagen.",
          "En la clínica, la IA ayuda a tu dentista a revisar las radiografías, pero la interpretación y la decisión siempre son de un profesional.",
          sources[0] ? `Te cuento más: ${snippet(sources[0])}` : "",
          `Si tienes una radiografía reciente, tráela a tu evaluación; agenda en ${BOOKING_LINK}.`,
        ]
          .filter(Boolean)
          .join("\n")
          .concat(cite(sources)),
        sources,
      };
    }
    case "predict_outcome": {
      // Quoted as "our guide": the guides and articles only, never a catalogue entry.
      const sources = await retrieve(
        `implantes osteointegración cuidados resultado ${input.text}`,
        clinic,
        2,
        ["guide", "article"],
      );
      return {
        intent,
        content: [
          "No es posible predecir ni garantizar el resultado de un implante antes de evaluarte.",
          "Influyen, entre otros factores: la cantidad y calidad del hueso, la salud de las encías, el tabaco, enfermedades como la diabetes no controlada, la higiene y los controles posteriores.",
          sources[0] ? `Según nuestra guía: ${snippet(sources[0])}` : "",
          `En una evaluación tu dentista revisa estos factores contigo; agenda en ${BOOKING_LINK}.`,
        ]
          .filter(Boolean)
          .join("\n")
          .concat(cite(sources)),
        sources,
      };
    }
    case "treatment_advice":
    case "general": {
      const sources = await retrieve(input.text, clinic, 3);
      if (sources.length === 0) {
        return {
          intent,
          content: [
            "No encontré información sobre eso en el contenido de la clínica.",
            `Puedo ayudarte con tratamientos, precios, horarios o agendar en ${BOOKING_LINK}. También puedes pedir «Hablar con una persona».`,
          ].join("\n"),
          sources,
        };
      }
      const intro =
        intent === "treatment_advice"
          ? "El tratamiento adecuado depende de una evaluación clínica. Te dejo información de la clínica que puede orientarte:"
          : "Esto es lo que encontré en el contenido de la clínica:";
      return {
        intent,
        content: [
          intro,
          ...sources.slice(0, 2).map((passage) => `• ${passage.title}: ${snippet(passage, 200)}`),
          "",
          NOT_A_DIAGNOSIS,
          `Puedes agendar una evaluación en ${BOOKING_LINK}.`,
        ]
          .join("\n")
          .concat(cite(sources)),
        sources,
      };
    }
  }
}
