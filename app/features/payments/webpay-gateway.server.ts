import { isDemoMode, publicBaseUrl } from "~/lib/base/env.server";
import {
  createWebpayClient,
  webpayClientConfig,
  type WebpayClient,
  type WebpayMode,
} from "~/integrations/webpay/webpay-client.server";

/** How online payment runs in this process: the one answer for the client below and the Overview's Webpay line. */
export function webpayMode(): WebpayMode {
  return isDemoMode() ? "demo" : "off";
}

// Provisional until the TRANSBANK_* variables land with the integration branch: demo mode only.
let cached: WebpayClient | null | undefined;
export function webpayClient(): WebpayClient | null {
  if (cached !== undefined) return cached;
  const config = webpayClientConfig({
    mode: webpayMode(),
    timeoutMs: 10_000,
    publicBaseUrl: publicBaseUrl(),
  });
  cached = config ? createWebpayClient(config) : null;
  return cached;
}
