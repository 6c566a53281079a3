import { describe, expect, it } from "vitest";
import { scoreLead } from "~/domain/lead-scoring";
import {
  agentLine,
  outboxLine,
  OUTBOX_STALE_MS,
  scoringLine,
  scoringSelfCheck,
  webpayLine,
  whatsAppLine,
  type WhatsAppFacts,
} from "./system-status";

const now = new Date("2026-11-24T15:00:00Z");
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const healthy: WhatsAppFacts = {
  testMode: false,
  successes: 12,
  failures: 0,
  lastSuccessAt: minutesAgo(5),
  lastFailureAt: null,
  retrying: 0,
};

describe("system status: WhatsApp", () => {
  it("is connected with the last success time", () => {
    expect(whatsAppLine(healthy, now)).toMatchObject({
      tone: "ok",
      label: "Conectado",
      detail: "Los mensajes salen por el outbox hacia el proveedor. Último envío aceptado: hace 5 min.",
    });
  });

  it("is in test mode without a key", () => {
    expect(whatsAppLine({ ...healthy, testMode: true, lastSuccessAt: null }, now)).toMatchObject({
      tone: "demo",
      label: "Modo prueba",
      detail: expect.stringContaining("Último envío aceptado: ninguno aún."),
    });
  });

  it("is failing when the latest outcome is a failure, even after earlier successes", () => {
    const line = whatsAppLine({ ...healthy, failures: 2, lastFailureAt: minutesAgo(1) }, now);
    expect(line).toMatchObject({ tone: "down", label: "Con fallas" });
    expect(line.detail).toBe(
      "De los últimos envíos, 2 fallaron y 12 fueron aceptados. Último envío aceptado: hace 5 min.",
    );
    // An old failure followed by a success is history, not the current state.
    expect(whatsAppLine({ ...healthy, failures: 1, lastFailureAt: minutesAgo(60) }, now).tone).toBe("ok");
  });

  it("is failing while messages wait for a retry after a failed attempt, even in test mode", () => {
    expect(whatsAppLine({ ...healthy, testMode: true, retrying: 3 }, now)).toMatchObject({
      tone: "down",
      detail: expect.stringContaining("3 en reintento."),
    });
  });
});

describe("system status: Bot IA", () => {
  it("names the agent's mode and its last reply", () => {
    expect(agentLine({ llm: false, lastReplyAt: minutesAgo(180) }, now)).toMatchObject({
      label: "Modo local",
      detail: expect.stringContaining("Última respuesta: hace 3 horas."),
    });
    expect(agentLine({ llm: true, lastReplyAt: null }, now)).toMatchObject({
      label: "Modelo de lenguaje",
      detail: expect.stringContaining("Última respuesta: ninguna aún."),
    });
  });
});

describe("system status: Lead Scoring self-check", () => {
  it("passes with the real scorer: 85 / 55 / 25", () => {
    const checks = scoringSelfCheck();
    expect(checks.map((check) => [check.key, check.actual])).toEqual([
      ["hot", 85],
      ["warm", 55],
      ["cold", 25],
    ]);
    expect(scoringLine(checks)).toMatchObject({
      tone: "ok",
      detail: "Autoverificación correcta: los tres escenarios de referencia puntúan 85 / 55 / 25.",
    });
  });

  it("fails when a scenario scores differently", () => {
    const broken = scoringSelfCheck((lead) => {
      const result = scoreLead(lead);
      return lead.urgency === "1-mes" ? { ...result, score: result.score - 5 } : result;
    });
    expect(scoringLine(broken)).toMatchObject({
      tone: "down",
      label: "Falla la autoverificación",
      detail: "Lead tibio: 50 (se esperaba 55).",
    });
  });
});

describe("system status: outbox backlog", () => {
  it("is up to date without pending items", () => {
    expect(outboxLine({ pending: 0, oldestPendingAt: null }, now)).toMatchObject({
      tone: "ok",
      label: "Al día",
    });
  });

  it("is fine with a fresh pending item and warns past the threshold", () => {
    expect(outboxLine({ pending: 2, oldestPendingAt: minutesAgo(3) }, now)).toMatchObject({
      tone: "ok",
      label: "En curso",
      detail: "2 envíos pendientes; el más antiguo, creado hace 3 min.",
    });
    const stale = new Date(now.getTime() - OUTBOX_STALE_MS - 60_000);
    expect(outboxLine({ pending: 1, oldestPendingAt: stale }, now)).toMatchObject({
      tone: "warn",
      label: "Envíos atrasados",
      detail: "1 envío pendiente; el más antiguo, creado hace 16 min.",
    });
    expect(outboxLine({ pending: 501, oldestPendingAt: minutesAgo(1) }, now)).toMatchObject({
      tone: "warn",
      label: "Cola larga",
    });
  });
});

describe("system status: Webpay", () => {
  const quiet = { recentErrors: 0, staleOpen: 0 };

  it("names its mode: real, demonstration or off", () => {
    expect(webpayLine({ mode: "live", ...quiet })).toMatchObject({ tone: "ok", label: "Real" });
    expect(webpayLine({ mode: "demo", ...quiet })).toMatchObject({ tone: "demo", label: "Demostración" });
    expect(webpayLine({ mode: "off", ...quiet })).toMatchObject({
      tone: "warn",
      label: "Apagado",
      detail: expect.stringContaining("El pago en línea no está disponible"),
    });
  });

  it("is failing with recent errors or attempts left unsettled for 15 minutes", () => {
    expect(webpayLine({ mode: "live", recentErrors: 2, staleOpen: 0 })).toMatchObject({
      tone: "down",
      label: "Con fallas",
      detail: "2 intentos con error en los últimos 15 minutos. Revisa Administración › Pagos.",
    });
    expect(webpayLine({ mode: "demo", recentErrors: 0, staleOpen: 1 }).detail).toBe(
      "1 intento sigue sin conciliar después de 15 minutos. Revisa Administración › Pagos.",
    );
  });
});
