/** The patient's payment pages (ADR 036), client-safe so that links and redirects agree. */

/** The page that posts token_ws to Webpay's form. */
export const checkoutPath = (paymentId: string) => `/pagos/webpay/ir/${encodeURIComponent(paymentId)}`;

/** Where the payer lands after Webpay: the attempt's outcome. */
export const paymentResultPath = (paymentId: string) =>
  `/paciente/pagos/resultado/${encodeURIComponent(paymentId)}`;

/** The receipt of an authorized payment. */
export const receiptPath = (paymentId: string) =>
  `/paciente/pagos/${encodeURIComponent(paymentId)}/comprobante`;
