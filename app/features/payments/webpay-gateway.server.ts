import {
  createWebpayClient,
  webpayClientConfig,
  type WebpayClient,
} from "~/integrations/webpay/webpay-client.server";
import { webpaySettings } from "~/lib/base/env.server";

const holder = globalThis as typeof globalThis & { __clinicaWebpay?: WebpayClient | null };

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
