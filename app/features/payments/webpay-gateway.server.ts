import { isDemoMode, publicBaseUrl } from "~/lib/base/env.server";
import {
  createWebpayClient,
  webpayClientConfig,
  type WebpayClient,
} from "~/integrations/webpay/webpay-client.server";

// Provisional until the TRANSBANK_* variables land with the integration branch: demo mode only.
let cached: WebpayClient | null | undefined;
export function webpayClient(): WebpayClient | null {
  if (cached !== undefined) return cached;
  const config = webpayClientConfig({
    mode: isDemoMode() ? "demo" : "off",
    timeoutMs: 10_000,
    publicBaseUrl: publicBaseUrl(),
  });
  cached = config ? createWebpayClient(config) : null;
  return cached;
}
