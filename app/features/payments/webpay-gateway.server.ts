import {
  createWebpayClient,
  webpayClientConfig,
  type WebpayClient,
  type WebpayMode,
} from "~/integrations/webpay/webpay-client.server";
import { webpayMode as configuredWebpayMode, webpaySettings } from "~/lib/base/env.server";

const holder = globalThis as typeof globalThis & { __clinicaWebpay?: WebpayClient | null };

/** How online payment runs in this process: the one answer for the client below and the Overview's Webpay line. */
export function webpayMode(): WebpayMode {
  return configuredWebpayMode();
}

/**
 * The Webpay this process talks to (ADR 036): the configured commerce (TRANSBANK_*), the fake the app serves itself
 * in demo mode, or none — then online payment is off and bookings work as they did without it. Built once.
 */
export function webpayClient(): WebpayClient | null {
  if (holder.__clinicaWebpay === undefined) {
    const config = webpayClientConfig(webpaySettings());
    holder.__clinicaWebpay = config ? createWebpayClient(config) : null;
  }
  return holder.__clinicaWebpay;
}
