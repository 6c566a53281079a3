import { data } from "react-router";
import type { Route } from "./+types/webpay-demo";
import { createWebpayFake, type WebpayFake } from "~/integrations/webpay/webpay-fake";
import { WEBPAY_DEMO_PATH } from "~/integrations/webpay/webpay-schemas";
import { clinicFacts, env, publicBaseUrl, webpayMode } from "~/lib/base/env.server";

/**
 * Demo mode's Webpay (ADR 036): without TRANSBANK_* and with SEED_DEMO the app serves the Webpay fake itself, so a
 * demo pays end to end with no account at Transbank: the API the SDK calls and the payment form, under
 * /webpay-demo/*. Outside demo mode (or with a real commerce configured) every path here is a 404. The fake's test
 * hooks (/__fake/*) are off: a public demo must not let anyone approve or list payments.
 */

// One fake per process, kept on globalThis so Vite's dev server, which re-evaluates server modules on edits, does
// not lose the transactions in flight. Its state is in memory: a restart forgets the demo's payments.
const holder = globalThis as typeof globalThis & { __clinicaWebpayDemo?: WebpayFake };

function demoFake(): WebpayFake {
  holder.__clinicaWebpayDemo ??= createWebpayFake({
    basePath: WEBPAY_DEMO_PATH,
    publicUrl: `${publicBaseUrl()}${WEBPAY_DEMO_PATH}`,
    commerceName: clinicFacts().name,
    controlRoutes: false,
  });
  return holder.__clinicaWebpayDemo;
}

function handle(request: Request) {
  if (webpayMode(env()) !== "demo") throw data(null, { status: 404 });
  return demoFake().handle(request);
}

export async function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export async function action({ request }: Route.ActionArgs) {
  return handle(request);
}
