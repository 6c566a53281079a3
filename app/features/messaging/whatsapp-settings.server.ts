import { worstCaseDurationMs } from "~/integrations/http.server";
import { normalizeWhatsAppNumber } from "~/integrations/whatsapp/phone";
import { clinicFacts, env, EnvError, publicBaseUrl, whatsAppTestMode, type Env } from "~/lib/base/env.server";
import { OUTBOX_LEASE_MS } from "~/features/outbox/outbox.server";

/** What the WhatsApp outbox handler builds its client from (env by default; tests pass their own). */
export interface WhatsAppSettings {
  baseUrl: string;
  apiKey?: string;
  sender: string;
  testMode: boolean;
  timeoutMs: number;
  /** The client's own retries inside one outbox attempt (429/5xx/timeouts). */
  retries: number;
  /** Where the provider posts delivery and seen reports; only with a public base URL it can reach. */
  notifyUrl?: string;
}

export const WHATSAPP_CLIENT_RETRIES = 2;
export const WHATSAPP_REPORTS_PATH = "/api/whatsapp/reports";
/** Used only in test mode, where nothing is sent. */
const UNUSED_BASE_URL = "https://api.infobip.com";

export function whatsAppSettings(current: Env = env()): WhatsAppSettings {
  const testMode = whatsAppTestMode(current);
  // In test mode the clinic's own mobile stands in for the sender, which the client still checks.
  const sender = current.WHATSAPP_SENDER ?? normalizeWhatsAppNumber(clinicFacts(current).mobile) ?? "";
  return {
    baseUrl: current.WHATSAPP_BASE_URL ?? UNUSED_BASE_URL,
    apiKey: current.WHATSAPP_API_KEY,
    sender,
    testMode,
    timeoutMs: current.WHATSAPP_TIMEOUT_MS,
    retries: WHATSAPP_CLIENT_RETRIES,
    notifyUrl: current.PUBLIC_BASE_URL ? `${publicBaseUrl(current)}${WHATSAPP_REPORTS_PATH}` : undefined,
  };
}

/**
 * Refuses to boot when one WhatsApp send (every retry of the client, each waiting its timeout) could outlast the
 * outbox lease: another instance would then claim the row while it is still being sent.
 */
export function assertWhatsAppTimingFits(current: Env = env()): void {
  const worst = worstCaseDurationMs(current.WHATSAPP_TIMEOUT_MS, WHATSAPP_CLIENT_RETRIES);
  if (worst >= OUTBOX_LEASE_MS) {
    throw new EnvError([
      `WHATSAPP_TIMEOUT_MS: con ${current.WHATSAPP_TIMEOUT_MS} ms un envío puede tardar hasta ${worst} ms con sus ${WHATSAPP_CLIENT_RETRIES} reintentos, más que el plazo del outbox (${OUTBOX_LEASE_MS} ms); usa un valor menor`,
    ]);
  }
}
