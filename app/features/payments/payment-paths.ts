import { redirectDocument } from "react-router";

/** The patient's payment pages (ADR 036), client-safe so that links and redirects agree. */

/** The page that posts token_ws to Webpay's form. */
export const checkoutPath = (paymentId: string) => `/pagos/webpay/ir/${encodeURIComponent(paymentId)}`;

/**
 * An action's redirect to the checkout page, as a full document load: the Content-Security-Policy that lets that
 * page post to Webpay's origin (form-action, entry.server.tsx) comes only with a document response. A client-side
 * navigation keeps the previous page's `form-action 'self'`, and the browser blocks the post to Webpay.
 */
export const checkoutRedirect = (paymentId: string) => redirectDocument(checkoutPath(paymentId));

/** Where the payer lands after Webpay: the attempt's outcome. */
export const paymentResultPath = (paymentId: string) =>
  `/paciente/pagos/resultado/${encodeURIComponent(paymentId)}`;

/** The receipt of an authorized payment. */
export const receiptPath = (paymentId: string) =>
  `/paciente/pagos/${encodeURIComponent(paymentId)}/comprobante`;
