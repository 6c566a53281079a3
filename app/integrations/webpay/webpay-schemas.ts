import { z } from "zod";

/**
 * Transbank Webpay Plus REST API v1.2 (ADR 036): the paths, limits and integration credentials both the client and
 * the fake rely on, the zod schemas of the answers, their mapping to our types, and the reading of the official
 * SDK's errors. No I/O here, so every rule has a unit test beside it.
 */

/** Every Webpay Plus endpoint hangs under this path (transbank-sdk `ApiConstants.WEBPAY_ENDPOINT`). */
export const WEBPAY_API_PATH = "/rswebpaytransaction/api/webpay/v1.2";
/** Where Webpay's payment form lives (the `url` that `create` returns, e.g. on webpay3gint.transbank.cl). */
export const WEBPAY_FORM_PATH = "/webpayserver/initTransaction";
/** Where the demo mode serves the fake inside the app (ADR 036). */
export const WEBPAY_DEMO_PATH = "/webpay-demo";

/** The public integration environment's Webpay Plus commerce and key (documented by Transbank, also in the SDK). */
export const WEBPAY_INTEGRATION_COMMERCE_CODE = "597055555532";
export const WEBPAY_INTEGRATION_API_KEY = "579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C";

/** The API's limits (referencia/webpay 1.2: buy_order ≤ 26, session_id ≤ 61; the SDK checks return_url ≤ 255). */
export const BUY_ORDER_MAX_LENGTH = 26;
export const SESSION_ID_MAX_LENGTH = 61;
export const RETURN_URL_MAX_LENGTH = 255;
export const TOKEN_MAX_LENGTH = 64;

/** The characters Transbank allows in a buy order: letters, digits and `|_=&%.,~:/?[+!@()>-`. */
export const BUY_ORDER_PATTERN = /^[A-Za-z0-9|_=&%.,~:/?[+!@()>-]+$/;
/**
 * A token as Webpay issues it (64 hex characters). It comes back from the payer's browser and the SDK puts it in
 * the request path, so anything else is refused before a request is made (no `../` reaches Transbank).
 */
export const TOKEN_PATTERN = /^[0-9A-Za-z]{1,64}$/;

export const WEBPAY_STATUSES = [
  "INITIALIZED",
  "AUTHORIZED",
  "REVERSED",
  "FAILED",
  "NULLIFIED",
  "PARTIALLY_NULLIFIED",
  "CAPTURED",
] as const;

export type WebpayTransactionStatus = (typeof WEBPAY_STATUSES)[number];

export interface WebpayTransaction {
  status: WebpayTransactionStatus;
  /** 0 approved; -1…-5 rejections (ADR 036); null while the payer has not finished. */
  responseCode: number | null;
  /** Whole pesos (CLP has no decimals). */
  amount: number;
  buyOrder: string;
  sessionId: string;
  authorizationCode: string | null;
  /** VD debit, VN credit one payment, VC/SI/S2/NC instalments, VP prepaid. */
  paymentTypeCode: string | null;
  /** Only the last four digits are kept, even for a commerce Transbank sends the whole number to. */
  cardLast4: string | null;
  installmentsNumber: number | null;
  transactionDate: Date | null;
  /** MMDD, as Transbank sends it. */
  accountingDate: string | null;
  /** Authentication result (TSY, TSN, ABO…): informative only, Transbank says not to decide on it. */
  vci: string | null;
  /** What is left after partial nullifications. */
  balance: number | null;
}

export interface WebpayRefund {
  /** REVERSED: the whole amount, soon after the sale; NULLIFIED: anything else (ADR 036). */
  type: "REVERSED" | "NULLIFIED";
  authorizationCode: string | null;
  authorizationDate: Date | null;
  nullifiedAmount: number | null;
  balance: number | null;
  /** Only for NULLIFIED: 0 done; any other value means the nullification was NOT made. */
  responseCode: number | null;
}

/** A count of whole pesos: an integer (a `1000.00` in the JSON parses to 1000 and passes). */
const pesos = z.number().int("un monto en pesos debe ser entero");

const isoDate = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), "fecha ISO 8601 inválida")
  .transform((value) => new Date(value));

export const webpayCreateResponseSchema = z.object({
  token: z.string().regex(TOKEN_PATTERN),
  url: z.url({ protocol: /^https?$/ }),
});

export const webpayTransactionResponseSchema = z.object({
  vci: z.string().nullish(),
  amount: pesos.positive(),
  status: z.enum(WEBPAY_STATUSES),
  buy_order: z.string().min(1).max(BUY_ORDER_MAX_LENGTH),
  session_id: z.string().min(1).max(SESSION_ID_MAX_LENGTH),
  card_detail: z.object({ card_number: z.string().nullish() }).nullish(),
  accounting_date: z.string().nullish(),
  transaction_date: isoDate.nullish(),
  authorization_code: z.string().nullish(),
  payment_type_code: z.string().nullish(),
  response_code: z.number().int().nullish(),
  installments_amount: pesos.nullish(),
  installments_number: z.number().int().nonnegative().nullish(),
  balance: pesos.nonnegative().nullish(),
});

export const webpayRefundResponseSchema = z.object({
  type: z.enum(["REVERSED", "NULLIFIED"]),
  authorization_code: z.string().nullish(),
  authorization_date: isoDate.nullish(),
  nullified_amount: pesos.nonnegative().nullish(),
  balance: pesos.nonnegative().nullish(),
  response_code: z.number().int().nullish(),
});

/** The last four digits of what Transbank sends as the card number (the last four, or the whole number). */
export function lastFourDigits(cardNumber: string | null | undefined): string | null {
  const digits = (cardNumber ?? "").replace(/\D/g, "");
  return digits.length >= 4 ? digits.slice(-4) : null;
}

export function toWebpayTransaction(
  body: z.output<typeof webpayTransactionResponseSchema>,
): WebpayTransaction {
  return {
    status: body.status,
    responseCode: body.response_code ?? null,
    amount: body.amount,
    buyOrder: body.buy_order,
    sessionId: body.session_id,
    authorizationCode: body.authorization_code || null,
    paymentTypeCode: body.payment_type_code || null,
    cardLast4: lastFourDigits(body.card_detail?.card_number),
    installmentsNumber: body.installments_number ?? null,
    transactionDate: body.transaction_date ?? null,
    accountingDate: body.accounting_date || null,
    vci: body.vci || null,
    balance: body.balance ?? null,
  };
}

export function toWebpayRefund(body: z.output<typeof webpayRefundResponseSchema>): WebpayRefund {
  return {
    type: body.type,
    authorizationCode: body.authorization_code || null,
    authorizationDate: body.authorization_date ?? null,
    nullifiedAmount: body.nullified_amount ?? null,
    balance: body.balance ?? null,
    responseCode: body.response_code ?? null,
  };
}

export type WebpayErrorKind = "timeout" | "unavailable" | "rejected" | "invalid_response" | "auth";

export interface ClassifiedSdkError {
  kind: WebpayErrorKind;
  httpStatus: number | null;
  /** Transbank's `error_message` (or axios's description when there was no answer). */
  detail: string;
}

/**
 * What failed, from the message of the SDK's `TransbankError`. The SDK (6.1.1, common/request_service.js) wraps
 * the axios error into `new TransbankError(axiosError, error_message || "Unexpected error")`, whose message is
 * `${axiosError}\n${error_message}\n` — the HTTP status survives only as axios's text "Request failed with status
 * code 422" (axios/lib/core/settle.js), a timeout as "timeout of N ms exceeded", a network failure as the socket
 * error ("connect ECONNREFUSED …"). The contract test runs the real SDK, so a change of these texts fails there.
 */
export function classifySdkErrorMessage(message: string): ClassifiedSdkError {
  const lines = message.split("\n").map((line) => line.trim());
  const head = lines[0] ?? "";
  const detail = lines.slice(1).find(Boolean) ?? head;
  const status = /status code (\d{3})\b/.exec(head);
  if (status) {
    const httpStatus = Number(status[1]);
    return { kind: kindOfStatus(httpStatus), httpStatus, detail };
  }
  if (/timeout of \d+ ?ms exceeded|\bETIMEDOUT\b|\bECONNABORTED\b|timeout exceeded/i.test(head)) {
    return { kind: "timeout", httpStatus: null, detail: head };
  }
  return { kind: "unavailable", httpStatus: null, detail: head };
}

/**
 * 401/403: the commerce code or key is wrong; 400/404/405/406/415/422: Transbank refused this request (a second
 * commit, an aborted payment, a refund over the balance…) and will refuse it again; 408/429/5xx: it may work later.
 */
export function kindOfStatus(status: number): WebpayErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 408 || status === 429 || status >= 500) return "unavailable";
  if (status >= 400) return "rejected";
  // A 3xx or 1xx where JSON was expected.
  return "invalid_response";
}
