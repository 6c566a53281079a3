import { formatLeadAge } from "~/domain/lead-age";
import { scoreLead, type LeadScore, type LeadScoringInput } from "~/domain/lead-scoring";
import { scenarioKeys, testScenarios } from "./test-scenarios";

/**
 * The Overview's live system status (ADR 026): each line from facts read at request time (the database, the env,
 * the Dentalink client). Pure, so every state is unit-tested.
 */

/** One line of the Overview's system status list (WhatsApp API, Dentalink API, Bot IA, Lead Scoring, outbox, Webpay). */
export interface SystemStatusLine {
  key: string;
  name: string;
  /** ok (green), demo (amber: runs without the external system), warn (amber: needs a look), down (red). */
  tone: "ok" | "demo" | "warn" | "down";
  label: string;
  detail: string;
}

/** How many of the newest WhatsApp messages with an outcome are looked at. */
export const WHATSAPP_RECENT_WINDOW = 50;
/**
 * A pending outbox item older than this is a warning. The outbox retries after 5 s, 10 s, 20 s … (≈ 10.6 min to
 * the 8th attempt), so anything still pending after 15 minutes is stuck or the worker is not running.
 */
export const OUTBOX_STALE_MS = 15 * 60_000;
/** Also a warning: more pending items than the worker delivers in a few seconds (≥ 200/s budget, DESIGN §5). */
export const OUTBOX_BACKLOG_WARN = 500;

export interface WhatsAppFacts {
  testMode: boolean;
  /** Among the newest messages with an outcome: accepted (or later) vs failed. */
  successes: number;
  failures: number;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  /** WhatsApp outbox items waiting for a retry after a failed attempt. */
  retrying: number;
}

export interface DentalinkFacts {
  state: "connected" | "mock" | "circuit-open";
  label: string;
  detail: string;
}

export interface AgentFacts {
  llm: boolean;
  lastReplyAt: Date | null;
}

export interface OutboxFacts {
  pending: number;
  oldestPendingAt: Date | null;
}

/** How long an attempt may stay unsettled, or an error stay news, before the Webpay line says "Con fallas". */
export const WEBPAY_TROUBLE_MS = 15 * 60_000;

export interface WebpayFacts {
  mode: "live" | "demo" | "off";
  /** Attempts whose last error was written in the last WEBPAY_TROUBLE_MS. */
  recentErrors: number;
  /** Attempts still "created" after WEBPAY_TROUBLE_MS (the reconciliation should have settled them). */
  staleOpen: number;
}

export interface SystemFacts {
  whatsapp: WhatsAppFacts;
  dentalink: DentalinkFacts;
  agent: AgentFacts;
  outbox: OutboxFacts;
  webpay: WebpayFacts;
}

const ago = (at: Date | null, now: Date, none: string) => (at ? formatLeadAge(at, now) : none);

export function whatsAppLine(facts: WhatsAppFacts, now: Date): SystemStatusLine {
  const lastSuccess = `Último envío aceptado: ${ago(facts.lastSuccessAt, now, "ninguno aún")}.`;
  const latestFailed =
    facts.lastFailureAt !== null &&
    (facts.lastSuccessAt === null || facts.lastFailureAt.getTime() > facts.lastSuccessAt.getTime());
  if (latestFailed || facts.retrying > 0) {
    const parts = [
      `De los últimos envíos, ${facts.failures} fallaron y ${facts.successes} fueron aceptados.`,
      facts.retrying > 0 ? `${facts.retrying} en reintento.` : null,
      lastSuccess,
    ];
    return {
      key: "whatsapp",
      name: "WhatsApp API",
      tone: "down",
      label: "Con fallas",
      detail: parts.filter(Boolean).join(" "),
    };
  }
  return {
    key: "whatsapp",
    name: "WhatsApp API",
    tone: facts.testMode ? "demo" : "ok",
    label: facts.testMode ? "Modo prueba" : "Conectado",
    detail: facts.testMode
      ? `Sin API key o en modo prueba: los mensajes se registran como aceptados sin enviarse. ${lastSuccess}`
      : `Los mensajes salen por el outbox hacia el proveedor. ${lastSuccess}`,
  };
}

export function dentalinkLine(facts: DentalinkFacts): SystemStatusLine {
  return {
    key: "dentalink",
    name: "Dentalink API",
    tone: facts.state === "connected" ? "ok" : facts.state === "mock" ? "demo" : "down",
    label: facts.label,
    detail: facts.detail,
  };
}

export function agentLine(facts: AgentFacts, now: Date): SystemStatusLine {
  const last = `Última respuesta: ${ago(facts.lastReplyAt, now, "ninguna aún")}.`;
  return {
    key: "bot",
    name: "Bot IA",
    tone: "ok",
    label: facts.llm ? "Modelo de lenguaje" : "Modo local",
    detail: facts.llm
      ? `Responde con el modelo configurado y, si falla, con el agente local. ${last}`
      : `Responde con el agente local (contenido de la clínica, sin servicio externo). ${last}`,
  };
}

export interface ScoringCheck {
  key: string;
  title: string;
  expected: number;
  actual: number;
}

/** Runs the three reference scenarios (85 / 55 / 25 points, `test-scenarios.ts`) through the scorer. */
export function scoringSelfCheck(score: (lead: LeadScoringInput) => LeadScore = scoreLead): ScoringCheck[] {
  return scenarioKeys.map((key) => {
    const scenario = testScenarios[key];
    return {
      key,
      title: scenario.title,
      expected: scenario.expectedScore,
      actual: score(scenario.lead).score,
    };
  });
}

export function scoringLine(checks: ScoringCheck[]): SystemStatusLine {
  const wrong = checks.filter((check) => check.actual !== check.expected);
  const figures = checks.map((check) => check.actual).join(" / ");
  if (wrong.length > 0) {
    return {
      key: "scoring",
      name: "Lead Scoring",
      tone: "down",
      label: "Falla la autoverificación",
      detail: wrong
        .map((check) => `${check.title}: ${check.actual} (se esperaba ${check.expected}).`)
        .join(" "),
    };
  }
  return {
    key: "scoring",
    name: "Lead Scoring",
    tone: "ok",
    label: "Activo",
    detail: `Autoverificación correcta: los tres escenarios de referencia puntúan ${figures}.`,
  };
}

export function outboxLine(facts: OutboxFacts, now: Date): SystemStatusLine {
  if (facts.pending === 0 || facts.oldestPendingAt === null) {
    return {
      key: "outbox",
      name: "Cola de envíos (outbox)",
      tone: "ok",
      label: "Al día",
      detail: "No hay envíos pendientes.",
    };
  }
  const stale = now.getTime() - facts.oldestPendingAt.getTime() > OUTBOX_STALE_MS;
  const crowded = facts.pending > OUTBOX_BACKLOG_WARN;
  const pending = facts.pending === 1 ? "1 envío pendiente" : `${facts.pending} envíos pendientes`;
  return {
    key: "outbox",
    name: "Cola de envíos (outbox)",
    tone: stale || crowded ? "warn" : "ok",
    label: stale ? "Envíos atrasados" : crowded ? "Cola larga" : "En curso",
    detail: `${pending}; el más antiguo, creado ${formatLeadAge(facts.oldestPendingAt, now)}.`,
  };
}

export function webpayLine(facts: WebpayFacts): SystemStatusLine {
  const base = { key: "webpay", name: "Webpay" };
  if (facts.mode === "off") {
    return {
      ...base,
      tone: "warn",
      label: "Apagado",
      detail: "El pago en línea no está disponible: las reservas se hacen sin abono en línea.",
    };
  }
  if (facts.recentErrors > 0 || facts.staleOpen > 0) {
    const parts = [
      facts.recentErrors > 0
        ? `${facts.recentErrors === 1 ? "1 intento con error" : `${facts.recentErrors} intentos con error`} en los últimos 15 minutos.`
        : null,
      facts.staleOpen > 0
        ? `${facts.staleOpen === 1 ? "1 intento sigue" : `${facts.staleOpen} intentos siguen`} sin conciliar después de 15 minutos.`
        : null,
      "Revisa Administración › Pagos.",
    ];
    return { ...base, tone: "down", label: "Con fallas", detail: parts.filter(Boolean).join(" ") };
  }
  return facts.mode === "demo"
    ? {
        ...base,
        tone: "demo",
        label: "Demostración",
        detail: "Pagos simulados con el comercio de integración de Transbank: no se cobra dinero real.",
      }
    : {
        ...base,
        tone: "ok",
        label: "Real",
        detail: "Los pagos en línea se cobran con el comercio configurado.",
      };
}

export function systemStatusLines(
  facts: SystemFacts,
  now: Date,
  checks: ScoringCheck[] = scoringSelfCheck(),
): SystemStatusLine[] {
  return [
    whatsAppLine(facts.whatsapp, now),
    dentalinkLine(facts.dentalink),
    agentLine(facts.agent, now),
    scoringLine(checks),
    outboxLine(facts.outbox, now),
    webpayLine(facts.webpay),
  ];
}
