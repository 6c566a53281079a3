import { redirect } from "react-router";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import type { WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { rateLimitIp } from "~/lib/client-ip.server";
import { consumeRate, type RateRule } from "~/lib/rate-limit.server";
import { readForm } from "~/lib/request.server";
import { paymentResultPath } from "./payment-paths";
import { handleWebpayReturn } from "./payment-service.server";

/**
 * Where Webpay sends the payer back (ADR 036), by POST or by GET. No session is asked: Webpay's cross-site POST
 * carries no SameSite=Lax cookie, so the attempt is found only by the token (or buy order and session id) we issued;
 * anything else is a 404 that changes nothing. Card data never comes here: Webpay keeps it.
 */

/** Per client address: a payer comes back once per attempt; a page reloaded a few times stays far below. */
export const WEBPAY_RETURN_RATE: RateRule = { window: 60, max: 30 };

/** Webpay's field sizes: a token of 64 characters, a buy order of 26, a session id of 61. */
const returnSchema = z.object({
  token_ws: z.string().trim().min(1).max(64).optional(),
  TBK_TOKEN: z.string().trim().min(1).max(64).optional(),
  TBK_ORDEN_COMPRA: z.string().trim().min(1).max(26).optional(),
  TBK_ID_SESION: z.string().trim().min(1).max(61).optional(),
});

const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

function plainPage(status: number, title: string, text: string, headers: Record<string, string> = {}) {
  const html = `<!doctype html><html lang="es-CL"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p><p><a href="/paciente/pagos">Ir a Mis Pagos</a></p></main></body></html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", ...NO_STORE, ...headers },
  });
}

export const webpayReturnNotFound = () =>
  plainPage(
    404,
    "Pago no encontrado",
    "No encontramos ese pago. Si pagaste, revisa Mis Pagos o escríbenos: no se hará un cargo doble.",
  );

/** The fields Webpay sent: from the query (GET) and, for a POST, the form body too (the body wins). */
async function returnFields(request: Request): Promise<Record<string, string>> {
  const fields: Record<string, string> = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method.toUpperCase() === "POST") Object.assign(fields, await readForm(request));
  return fields;
}

/** The loader and the action of /pagos/webpay/retorno; `webpay` is the process's client (a fake's in tests). */
export async function webpayReturnResponse(request: Request, webpay: WebpayClient | null): Promise<Response> {
  const db = await getDb();
  const rate = await consumeRate(db, `webpay-return:ip:${rateLimitIp(request)}`, WEBPAY_RETURN_RATE);
  if (!rate.allowed) {
    return plainPage(
      429,
      "Demasiados intentos",
      "Espera un momento y vuelve a intentarlo.",
      rate.retryAfter === null ? {} : { "Retry-After": String(rate.retryAfter) },
    );
  }
  const parsed = returnSchema.safeParse(await returnFields(request));
  if (!parsed.success) return webpayReturnNotFound();
  const input = parsed.data;
  if (!input.token_ws && !input.TBK_TOKEN && !(input.TBK_ORDEN_COMPRA && input.TBK_ID_SESION)) {
    return webpayReturnNotFound();
  }
  const found = await handleWebpayReturn(
    db,
    {
      tokenWs: input.token_ws,
      tbkToken: input.TBK_TOKEN,
      tbkOrder: input.TBK_ORDEN_COMPRA,
      tbkSession: input.TBK_ID_SESION,
    },
    webpay,
  );
  if (!found) return webpayReturnNotFound();
  // 303: the browser GETs the result page whatever method Webpay used.
  return redirect(paymentResultPath(found.paymentId), { status: 303, headers: NO_STORE });
}
