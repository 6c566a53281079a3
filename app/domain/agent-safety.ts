import { normalizeForMatching } from "./keyword-match";

/**
 * The virtual dentist's rules that do not depend on retrieval (DESIGN decision 18): which intent a message
 * has, in which order they win, and the fixed texts where safety matters (emergencies, diagnosis, outcomes). Pure.
 * Emergencies come first: someone bleeding who also asks for a price needs the urgent answer.
 */
export type AgentIntent =
  | "emergency"
  | "distress"
  | "human"
  | "xray"
  | "predict_outcome"
  | "treatment_advice"
  | "booking"
  | "prices"
  | "hours"
  | "general";

/** The chat widget's five suggested prompts, in Spanish. */
export const SUGGESTED_PROMPTS = [
  "¿Qué tratamiento necesito?",
  "¿Pueden predecir el resultado de mi implante?",
  "Analiza mi radiografía dental",
  "Quiero agendar una cita",
  "¿Cuáles son los precios?",
] as const;

const rules: ReadonlyArray<{ intent: AgentIntent; patterns: readonly RegExp[] }> = [
  {
    intent: "emergency",
    patterns: [
      /\bsangr/,
      /\bhinchad|\bhinchazon|\binflamad/,
      /\bgolpe|\btrauma|\baccidente|\bse me (cayo|quebro|rompio) (un|el|mi) diente/,
      /\bdolor (muy )?(intenso|fuerte|insoportable)|\bmucho dolor|\bme duele (mucho|demasiado)/,
      /\burgencia|\bemergencia|\bfiebre|\bno puedo (respirar|tragar|abrir la boca)/,
    ],
  },
  {
    intent: "distress",
    patterns: [
      /\bquiero morir|\bsuicid|\bhacerme dano|\bno aguanto mas|\bdesesperad|\bcrisis de (panico|angustia)/,
    ],
  },
  {
    intent: "human",
    patterns: [
      /\bhablar con (una persona|un humano|alguien|un ejecutivo|un asesor|el equipo)|\bpersona real\b|\bhumanos?\b/,
    ],
  },
  { intent: "xray", patterns: [/\bradiograf|\brayos x\b|\brx\b|\bescaner|\bscanner|\bpanoramica/] },
  {
    intent: "predict_outcome",
    patterns: [
      /\bpredec|\bprediccion|\bresultado|\bgarantiz|\bcuanto dura(ra)? (mi|el) implante|\bva a funcionar/,
    ],
  },
  {
    intent: "booking",
    patterns: [
      /\bagend|\breserv|\bcitas?\b|\bhora (para|con)\b|\breprogram|\bcancelar (mi|la) (cita|hora)\b/,
    ],
  },
  {
    intent: "prices",
    patterns: [
      /\bprecio|\bcuanto (cuesta|vale|sale|cobran)\b|\bcosto|\bpresupuesto|\bvalor(es)?\b|\barancel/,
    ],
  },
  {
    intent: "treatment_advice",
    patterns: [
      /\bque tratamiento|\btratamiento necesito|\bque me (recomiendas|recomiendan)\b|\bnecesito (un|una)\b|\bme conviene/,
    ],
  },
  {
    intent: "hours",
    patterns: [
      /\bhorario|\ba que hora|\babren\b|\batienden\b|\bdireccion|\bdonde (estan|quedan)\b|\btelefono/,
    ],
  },
];

export function classifyIntent(message: string): AgentIntent {
  const text = normalizeForMatching(message);
  for (const rule of rules) {
    if (rule.patterns.some((pattern) => pattern.test(text))) return rule.intent;
  }
  return "general";
}

/** Intents the agent must not handle alone: they go to a person (emergency also gets the phone at once). */
export function needsHandoff(intent: AgentIntent): boolean {
  return intent === "emergency" || intent === "distress" || intent === "human";
}

export interface SafetyFacts {
  phone: string;
  emergencyNumber: string;
  hours: string;
}

export function emergencyReply(facts: SafetyFacts): string {
  return [
    "🚨 Esto puede ser una urgencia.",
    `Llama ahora a la clínica: ${facts.phone}. Si es grave o estamos fuera de horario, llama al ${facts.emergencyNumber} (SAMU).`,
    "No esperes la respuesta de este chat. Ya avisé al equipo para que una persona te contacte.",
  ].join("\n");
}

export function distressReply(facts: SafetyFacts): string {
  return [
    "Lamento que estés pasando por esto. No estás solo/a.",
    `Si estás en peligro, llama al ${facts.emergencyNumber} (SAMU) o al *4141 (línea de prevención del suicidio, gratuita).`,
    `Una persona de nuestro equipo te responderá aquí; también puedes llamarnos al ${facts.phone}.`,
  ].join("\n");
}

/** What the agent never does, stated where a reply might be read as medical advice. */
export const NOT_A_DIAGNOSIS =
  "Soy un asistente virtual: no puedo darte un diagnóstico ni garantizar resultados; eso lo hace tu dentista en una evaluación.";

/** Phrases a reply must never contain (checked in tests and on the LLM's output). */
const forbidden = [
  /te garantizo|garantizamos (el|un) resultado|100 ?% (de )?(exito|seguro)|tu diagnostico es|tienes (una )?(caries|periodontitis|infeccion)/,
];

export function violatesSafety(reply: string): boolean {
  const text = normalizeForMatching(reply);
  return forbidden.some((pattern) => pattern.test(text));
}

/**
 * The site's sections an agent's reply may link to: the public pages, the guides and the patient's own area. Not
 * the sign-in pages (their `redirectTo` is how a link sends someone elsewhere), the staff's, nor one-time links.
 */
const LINKABLE_SECTIONS: ReadonlySet<string> = new Set([
  "",
  "blog",
  "guias",
  "paciente",
  "politica-privacidad",
  "terminos-servicio",
  "eliminar-datos",
  "devolver-llamada",
]);

/** A plain path: lower-case slugs (a guide may end in .pdf), an optional #anchor; no query, `//`, `\` or scheme. */
const PLAIN_PATH = /^\/((?:[a-z0-9-]+\/)*[a-z0-9-]+(?:\.pdf)?)?(?:#[a-z0-9-]+)?$/;

/**
 * Only our own pages become links in what the agent writes (its text may come from a model that follows injected
 * instructions): a plain path into one of the linkable sections, nothing else.
 */
export function isOwnPagePath(href: string): boolean {
  const match = PLAIN_PATH.exec(href);
  if (!match) return false;
  return LINKABLE_SECTIONS.has((match[1] ?? "").split("/")[0]!);
}

/**
 * The agent's text as segments to render: a markdown link `[label](href)` to one of our pages becomes a link;
 * any other link is only its label, as text. Everything else stays text.
 */
export function agentTextSegments(text: string): Array<{ text: string; href?: string }> {
  const segments: Array<{ text: string; href?: string }> = [];
  const pattern = /\[([^\]\n]{1,200})\]\(([^)\s]{0,500})\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) segments.push({ text: text.slice(last, match.index) });
    const [, label, href] = match;
    segments.push(isOwnPagePath(href!) ? { text: label!, href } : { text: label! });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}
