import { env, whatsAppTestMode, type Env } from "~/lib/env.server";
import type { DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import { dentalinkClient, dentalinkStatusView } from "./dentalink-settings.server";
import type { SystemStatusLine } from "./sync-dto";

/** The real state of each system: Dentalink's from its client (mode and circuit breaker), WhatsApp's from env. */
export function systemStatus(
  options: { client?: DentalinkClient; env?: Env; now?: number } = {},
): SystemStatusLine[] {
  const current = options.env ?? env();
  const dentalink = dentalinkStatusView((options.client ?? dentalinkClient()).status(), options.now);
  const whatsAppTest = whatsAppTestMode(current);
  return [
    {
      key: "whatsapp",
      name: "WhatsApp API",
      tone: whatsAppTest ? "demo" : "ok",
      label: whatsAppTest ? "Modo prueba" : "Conectado",
      detail: whatsAppTest
        ? "Sin API key: los mensajes se registran como aceptados sin enviarse."
        : "Los mensajes salen por el outbox hacia el proveedor.",
    },
    {
      key: "dentalink",
      name: "Dentalink API",
      tone: dentalink.state === "connected" ? "ok" : dentalink.state === "mock" ? "demo" : "down",
      label: dentalink.label,
      detail: dentalink.detail,
    },
    {
      key: "bot",
      name: "Bot IA",
      tone: "ok",
      label: "Activo",
      detail: "El asistente guiado de la landing responde con las reglas de la clínica.",
    },
    {
      key: "scoring",
      name: "Lead Scoring",
      tone: "ok",
      label: "Activo",
      detail: "Cada lead nuevo recibe su puntaje y nivel al guardarse.",
    },
  ];
}
