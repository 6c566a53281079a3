import { randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import {
  BUY_ORDER_MAX_LENGTH,
  BUY_ORDER_PATTERN,
  RETURN_URL_MAX_LENGTH,
  SESSION_ID_MAX_LENGTH,
  TOKEN_PATTERN,
  WEBPAY_API_PATH,
  WEBPAY_FORM_PATH,
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
  type WebpayTransactionStatus,
} from "./webpay-schemas";

/**
 * A fake Transbank Webpay Plus (REST API v1.2) for tests, end-to-end runs, `npm run dev` and the demo mode (ADR 036).
 * It is a fetch-style handler (`handle(Request) → Response`), so the same instance runs behind the standalone server
 * below (`startWebpayFake`, `tests/setup/run-webpay-fake.mjs`) and inside the app under `/webpay-demo/*`.
 *
 * The API as the official SDK calls it: `Tbk-Api-Key-Id`/`Tbk-Api-Key-Secret` or 401; `{error_message}` bodies;
 * 422 for what Webpay refuses (validation, a second commit, an aborted payment, a refund over the balance); whole
 * pesos only. The payment form is its own small Spanish page at the `url` that `create` returns (token_ws by POST
 * or GET), and it sends the browser back to `return_url` as Webpay does: an auto-submitting POST form with
 * `token_ws` (approved or rejected), `TBK_TOKEN` + `TBK_ORDEN_COMPRA` + `TBK_ID_SESION` (the payer aborted), or
 * only `TBK_ORDEN_COMPRA` + `TBK_ID_SESION` (the form timed out). Test cards: VISA 4051 8856 0044 6623 approves,
 * Mastercard 5186 0595 5959 0568 is rejected; the Redcompra and prepaid test cards are known too.
 *
 * The state machine (times on the fake's own clock, which tests move forward):
 *   created → payer pending ─ pays ─→ approved / rejected (still INITIALIZED) ─ commit ─→ AUTHORIZED (0) / FAILED (-1)
 *                            ├ aborts ─→ aborted (INITIALIZED; commit 422)
 *                            └ no answer within `formTimeoutMs` → timeout (INITIALIZED; commit 422)
 *   approved but not committed within `commitWindowMs` of the return → REVERSED (rejected → FAILED); commit 422.
 *   A second commit → 422. refund: the whole amount within `reversalWindowMs` of the commit → REVERSED; otherwise a
 *   nullification (NULLIFIED, or PARTIALLY_NULLIFIED with a balance), refused for debit/prepaid cards, over the
 *   balance, or after `nullifyWindowMs`. status: within `statusWindowMs` of the creation.
 *
 * Test hooks under `/__fake/` (only when `controlRoutes`; never in the demo mode): `GET /__fake/state`,
 * `POST /__fake/reset`, `POST /__fake/fail {operation, token?, times?, status?, delayMs?, delayAfterApplyMs?, body?}`,
 * `POST /__fake/pay {token, outcome, cardNumber?}` → `{returnUrl, method, fields}`, `POST /__fake/clock {advanceMs}`.
 * Node built-ins only (and relative imports), so Node's own TypeScript support runs it.
 */

export type WebpayFakeOperation = "create" | "commit" | "status" | "refund";
export type PayerOutcome = "approve" | "reject" | "abort" | "timeout";
type PayerState = "pending" | "approved" | "rejected" | "aborted" | "timeout";

export interface TestCard {
  number: string;
  label: string;
  approved: boolean;
  /** VN credit, VD Redcompra debit, VP prepaid. */
  paymentType: "VN" | "VD" | "VP";
}

/** Transbank's integration test cards (transbankdevelopers.cl/documentacion/como_empezar#ambientes). */
export const WEBPAY_TEST_CARDS: readonly TestCard[] = [
  { number: "4051885600446623", label: "VISA", approved: true, paymentType: "VN" },
  { number: "5186059559590568", label: "Mastercard", approved: false, paymentType: "VN" },
  { number: "3700000000002032", label: "AMEX", approved: true, paymentType: "VN" },
  { number: "4051884239937763", label: "Redcompra", approved: true, paymentType: "VD" },
  { number: "5186008541233829", label: "Redcompra", approved: false, paymentType: "VD" },
  { number: "4051886000056590", label: "Prepago VISA", approved: true, paymentType: "VP" },
  { number: "5186174110629480", label: "Prepago Mastercard", approved: false, paymentType: "VP" },
];
export const APPROVED_TEST_CARD = "4051885600446623";
export const REJECTED_TEST_CARD = "5186059559590568";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Webpay's own limits (ADR 036); each is an option so tests can shorten them. */
export const WEBPAY_FAKE_DEFAULTS = {
  /** The payment form's limit: 4 minutes in production (10 in integration). */
  formTimeoutMs: 4 * MINUTE,
  /** How long a returned payment may wait for its commit; not documented by Transbank, kept short on purpose. */
  commitWindowMs: 30_000,
  /** A refund of the whole amount within this time of the sale is a reversal (3 hours per the 2022 docs). */
  reversalWindowMs: 3 * 60 * MINUTE,
  /** Nullifications through the API: up to 90 days after the sale. */
  nullifyWindowMs: 90 * DAY,
  /** `status` answers for 7 days after the creation. */
  statusWindowMs: 7 * DAY,
} as const;

export interface WebpayFakeTransaction {
  token: string;
  buyOrder: string;
  sessionId: string;
  amount: number;
  returnUrl: string;
  createdAt: Date;
  payer: PayerState;
  /** When the payer's browser was sent back to return_url. */
  returnedAt: Date | null;
  cardLast4: string | null;
  paymentType: TestCard["paymentType"] | null;
  status: WebpayTransactionStatus;
  committedAt: Date | null;
  responseCode: number | null;
  authorizationCode: string | null;
  vci: string | null;
  /** Left after nullifications; null before any. */
  balance: number | null;
  refunds: Array<{
    type: "REVERSED" | "NULLIFIED";
    amount: number;
    at: Date;
    authorizationCode: string | null;
  }>;
}

export interface WebpayFakeCall {
  operation: WebpayFakeOperation | "unknown";
  method: string;
  path: string;
  status: number;
  at: Date;
}

/** An injected failure for the next `times` calls of `operation` ("any": every API operation). */
export interface WebpayFakeFailure {
  operation: WebpayFakeOperation | "any";
  /** Only calls on this transaction (commit, status, refund), when several attempts are in flight. */
  token?: string;
  times?: number;
  /** Answered instead of the real result (with `body`, default `{error_message}`); a 200 answers `body` as it is. */
  status?: number;
  /** Waited before answering (the real result, or `status`). */
  delayMs?: number;
  /**
   * Waited after the real operation was applied, before its answer goes out: Webpay has committed (or refunded)
   * while the caller still waits, the window in which a caller that dies has not recorded what Webpay did.
   */
  delayAfterApplyMs?: number;
  body?: unknown;
}

export interface PayResult {
  returnUrl: string;
  method: "POST" | "GET";
  /** The fields the browser sends to return_url. */
  fields: Record<string, string>;
}

export interface WebpayFakeState {
  transactions: WebpayFakeTransaction[];
  calls: WebpayFakeCall[];
  failures: Array<WebpayFakeFailure & { times: number }>;
  clockOffsetMs: number;
}

export interface WebpayFakeOptions {
  commerceCode?: string;
  apiKey?: string;
  /** Shown on the payment form. */
  commerceName?: string;
  /** Where the handler is mounted ("" standalone, "/webpay-demo" inside the app). */
  basePath?: string;
  /** The absolute URL the form pages are reached at (default: the request's origin + basePath). */
  publicUrl?: string;
  /** The /__fake/ test hooks (default true; the demo mode turns them off). */
  controlRoutes?: boolean;
  /** How the browser goes back to return_url with token_ws (Webpay: POST; the docs also mention GET). */
  returnMethod?: "POST" | "GET";
  formTimeoutMs?: number;
  commitWindowMs?: number;
  reversalWindowMs?: number;
  nullifyWindowMs?: number;
  statusWindowMs?: number;
  /** The fake's clock before the offset tests add (default Date.now). */
  clock?: () => number;
  /** Transactions to start with (a saved `snapshot()`). */
  initial?: WebpayFakeTransaction[];
  /** Told after each change (the dev runner saves the state). */
  onChange?: (transactions: WebpayFakeTransaction[]) => void;
}

export interface WebpayFake {
  handle(request: Request): Promise<Response>;
  readonly state: WebpayFakeState;
  /** What the payer does on the form, without a browser: the fields their browser would send back. */
  pay(token: string, outcome: PayerOutcome, cardNumber?: string): PayResult;
  fail(failure: WebpayFakeFailure): void;
  advanceClock(ms: number): void;
  now(): Date;
  find(token: string): WebpayFakeTransaction | undefined;
  reset(): void;
  /** Ends any injected delay still waiting. */
  close(): void;
}

/** A refused request: the HTTP status and Transbank's `error_message`. */
class FakeRefusal extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json;charset=UTF-8", "cache-control": "no-store" },
  });
}

function apiError(status: number, message: string): Response {
  return json(status, { error_message: message });
}

function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const pesos = new Intl.NumberFormat("es-CL", { style: "currency", currency: "CLP" });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function newToken(): string {
  // Webpay's integration tokens are 64 hex characters that start with "01ab".
  return `01ab${randomBytes(30).toString("hex")}`;
}

function accountingDate(at: Date): string {
  return `${String(at.getUTCMonth() + 1).padStart(2, "0")}${String(at.getUTCDate()).padStart(2, "0")}`;
}

function transactionBody(transaction: WebpayFakeTransaction) {
  const at = transaction.committedAt ?? transaction.createdAt;
  return {
    ...(transaction.vci ? { vci: transaction.vci } : {}),
    amount: transaction.amount,
    status: transaction.status,
    buy_order: transaction.buyOrder,
    session_id: transaction.sessionId,
    ...(transaction.cardLast4 ? { card_detail: { card_number: transaction.cardLast4 } } : {}),
    accounting_date: accountingDate(at),
    transaction_date: at.toISOString(),
    ...(transaction.authorizationCode ? { authorization_code: transaction.authorizationCode } : {}),
    ...(transaction.paymentType ? { payment_type_code: transaction.paymentType } : {}),
    ...(transaction.responseCode === null ? {} : { response_code: transaction.responseCode }),
    installments_number: 0,
    ...(transaction.balance === null ? {} : { balance: transaction.balance }),
  };
}

function page(input: {
  status: number;
  title: string;
  body: string;
  script?: string;
  formTargets?: string[];
}): Response {
  const nonce = randomBytes(16).toString("base64");
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    // The form posts to this fake and, on the way back, to the commerce's return_url.
    `form-action 'self' ${(input.formTargets ?? []).join(" ")}`.trim(),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  const html = `<!doctype html>
<html lang="es-CL">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(input.title)} · Webpay de prueba</title>
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;background:#f4f1f6;color:#1d1a22;margin:0;padding:1.5rem}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:.5rem;padding:1.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.35rem;margin-top:0}dl{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem}dt{color:#5a5462}dd{margin:0;font-weight:600}
label{display:block;font-weight:600;margin-top:1rem}input{font-size:1.1rem;padding:.5rem;width:100%;box-sizing:border-box;margin-top:.25rem}
.help{font-size:.9rem;color:#4b4552}.error{color:#a3141f;font-weight:600}.note{font-size:.85rem;color:#4b4552}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}
button{font-size:1rem;padding:.65rem 1.2rem;border-radius:.35rem;border:1px solid #6b1e74;cursor:pointer}
.pay{background:#6b1e74;color:#fff}.abort{background:#fff;color:#6b1e74}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(input.title)}</h1>
${input.body}
</main>
${input.script ? `<script nonce="${nonce}">${input.script}</script>` : ""}
</body>
</html>`;
  return new Response(html, {
    status: input.status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      // A payment page is never cached (not even by the app's anonymous HTML cache, ADR 002).
      "cache-control": "no-store",
      "content-security-policy": csp,
      "referrer-policy": "no-referrer",
    },
  });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
    const form = await request.formData();
    const params = new URLSearchParams();
    for (const [name, value] of form) if (typeof value === "string") params.append(name, value);
    return params;
  }
  return new URLSearchParams();
}

function operationOf(method: string, path: string): { operation: WebpayFakeOperation; token: string } | null {
  if (path === `${WEBPAY_API_PATH}/transactions` && method === "POST")
    return { operation: "create", token: "" };
  const refundMatch = new RegExp(`^${WEBPAY_API_PATH}/transactions/([^/]+)/refunds$`).exec(path);
  if (refundMatch && method === "POST") return { operation: "refund", token: refundMatch[1] ?? "" };
  const match = new RegExp(`^${WEBPAY_API_PATH}/transactions/([^/]+)$`).exec(path);
  if (match && method === "PUT") return { operation: "commit", token: match[1] ?? "" };
  if (match && method === "GET") return { operation: "status", token: match[1] ?? "" };
  return null;
}

function messagePage(status: number, title: string, text: string): Response {
  return page({ status, title, body: `<p>${escapeHtml(text)}</p>` });
}

export function createWebpayFake(options: WebpayFakeOptions = {}): WebpayFake {
  const commerceCode = options.commerceCode ?? WEBPAY_INTEGRATION_COMMERCE_CODE;
  const apiKey = options.apiKey ?? WEBPAY_INTEGRATION_API_KEY;
  const commerceName = options.commerceName ?? "Comercio de prueba";
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const controlRoutes = options.controlRoutes ?? true;
  const returnMethod = options.returnMethod ?? "POST";
  const limits = {
    formTimeoutMs: options.formTimeoutMs ?? WEBPAY_FAKE_DEFAULTS.formTimeoutMs,
    commitWindowMs: options.commitWindowMs ?? WEBPAY_FAKE_DEFAULTS.commitWindowMs,
    reversalWindowMs: options.reversalWindowMs ?? WEBPAY_FAKE_DEFAULTS.reversalWindowMs,
    nullifyWindowMs: options.nullifyWindowMs ?? WEBPAY_FAKE_DEFAULTS.nullifyWindowMs,
    statusWindowMs: options.statusWindowMs ?? WEBPAY_FAKE_DEFAULTS.statusWindowMs,
  };
  const clock = options.clock ?? Date.now;
  const state: WebpayFakeState = {
    transactions: [...(options.initial ?? [])],
    calls: [],
    failures: [],
    clockOffsetMs: 0,
  };
  const waiting = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();

  const now = () => new Date(clock() + state.clockOffsetMs);
  const find = (token: string) => state.transactions.find((transaction) => transaction.token === token);
  const changed = () => options.onChange?.(state.transactions);

  function delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          waiting.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      waiting.add(entry);
    });
  }

  /** Applies what time alone does: the form's timeout and the commit window. */
  function settle(transaction: WebpayFakeTransaction, at: Date) {
    const elapsed = at.getTime() - transaction.createdAt.getTime();
    if (transaction.payer === "pending" && elapsed > limits.formTimeoutMs) {
      transaction.payer = "timeout";
      changed();
    }
    if (
      (transaction.payer === "approved" || transaction.payer === "rejected") &&
      transaction.committedAt === null &&
      transaction.status === "INITIALIZED" &&
      transaction.returnedAt &&
      at.getTime() - transaction.returnedAt.getTime() > limits.commitWindowMs
    ) {
      // Webpay undoes an authorization nobody confirmed in time.
      transaction.status = transaction.payer === "approved" ? "REVERSED" : "FAILED";
      changed();
    }
  }

  function takeFailure(operation: WebpayFakeOperation, token: string) {
    const index = state.failures.findIndex(
      (failure) =>
        (failure.operation === operation || failure.operation === "any") &&
        (failure.token === undefined || failure.token === token),
    );
    if (index === -1) return undefined;
    const failure = state.failures[index];
    if (!failure) return undefined;
    failure.times -= 1;
    if (failure.times <= 0) state.failures.splice(index, 1);
    return failure;
  }

  // ── The API ────────────────────────────────────────────────────────────────────────────────────────────

  function create(body: unknown, at: Date): WebpayFakeTransaction {
    if (!isRecord(body)) throw new FakeRefusal(400, "Invalid JSON");
    for (const field of ["buy_order", "session_id", "amount", "return_url"]) {
      if (body[field] === undefined || body[field] === null || body[field] === "") {
        throw new FakeRefusal(422, `${field} is required`);
      }
    }
    const { buy_order: buyOrder, session_id: sessionId, amount, return_url: returnUrl } = body;
    if (
      typeof buyOrder !== "string" ||
      buyOrder.length > BUY_ORDER_MAX_LENGTH ||
      !BUY_ORDER_PATTERN.test(buyOrder)
    ) {
      throw new FakeRefusal(422, "Invalid value for parameter: buy_order");
    }
    if (typeof sessionId !== "string" || sessionId.length > SESSION_ID_MAX_LENGTH) {
      throw new FakeRefusal(422, "Invalid value for parameter: session_id");
    }
    // Pesos have no decimals (USD would take two; this commerce is in CLP).
    if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0) {
      throw new FakeRefusal(422, "Invalid value for parameter: amount");
    }
    if (
      typeof returnUrl !== "string" ||
      returnUrl.length > RETURN_URL_MAX_LENGTH ||
      !/^https?:\/\/[^\s]+$/.test(returnUrl)
    ) {
      throw new FakeRefusal(422, "Invalid value for parameter: return_url");
    }
    const transaction: WebpayFakeTransaction = {
      token: newToken(),
      buyOrder,
      sessionId,
      amount,
      returnUrl,
      createdAt: at,
      payer: "pending",
      returnedAt: null,
      cardLast4: null,
      paymentType: null,
      status: "INITIALIZED",
      committedAt: null,
      responseCode: null,
      authorizationCode: null,
      vci: null,
      balance: null,
      refunds: [],
    };
    state.transactions.push(transaction);
    changed();
    return transaction;
  }

  function known(token: string): WebpayFakeTransaction {
    const transaction = TOKEN_PATTERN.test(token) ? find(token) : undefined;
    if (!transaction) throw new FakeRefusal(404, "Transaction not found");
    return transaction;
  }

  function commit(token: string, at: Date): Response {
    const transaction = known(token);
    settle(transaction, at);
    if (transaction.committedAt !== null) {
      throw new FakeRefusal(
        422,
        `Transaction has an invalid finished state: ${transaction.status.toLowerCase()}`,
      );
    }
    switch (transaction.payer) {
      case "pending":
        throw new FakeRefusal(
          422,
          "Invalid status '0' for transaction while authorizing. Commerce will be notified by webpay to authorize",
        );
      case "aborted":
        throw new FakeRefusal(
          422,
          "Invalid status '10' for transaction while authorizing. Commerce will be notified by webpay to authorize",
        );
      case "timeout":
        throw new FakeRefusal(422, "Transaction has an invalid finished state: aborted");
      default:
        break;
    }
    if (transaction.status !== "INITIALIZED") {
      // The commit window passed (settle reversed it).
      throw new FakeRefusal(422, "Transaction has an invalid finished state: aborted");
    }
    const approved = transaction.payer === "approved";
    transaction.committedAt = at;
    transaction.status = approved ? "AUTHORIZED" : "FAILED";
    transaction.responseCode = approved ? 0 : -1;
    transaction.authorizationCode = approved ? "1213" : "000000";
    transaction.vci = "TSY";
    changed();
    return json(200, transactionBody(transaction));
  }

  function readStatus(token: string, at: Date): Response {
    const transaction = known(token);
    if (at.getTime() - transaction.createdAt.getTime() > limits.statusWindowMs) {
      throw new FakeRefusal(422, "Transaction older than 7 days");
    }
    settle(transaction, at);
    return json(200, transactionBody(transaction));
  }

  function refund(token: string, body: unknown, at: Date): Response {
    const transaction = known(token);
    settle(transaction, at);
    if (!isRecord(body) || body.amount === undefined) throw new FakeRefusal(422, "amount is required");
    const amount = body.amount;
    if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0) {
      throw new FakeRefusal(422, "Invalid value for parameter: amount");
    }
    if (transaction.status === "REVERSED" || transaction.status === "NULLIFIED") {
      throw new FakeRefusal(422, "Transaction already reversed or nullified");
    }
    if (
      transaction.committedAt === null ||
      (transaction.status !== "AUTHORIZED" && transaction.status !== "PARTIALLY_NULLIFIED")
    ) {
      throw new FakeRefusal(422, "Transaction is not authorized");
    }
    const balance = transaction.balance ?? transaction.amount;
    if (amount > balance) throw new FakeRefusal(422, "Amount to nullify exceeds the available balance");
    const sinceSale = at.getTime() - transaction.committedAt.getTime();
    if (
      amount === transaction.amount &&
      transaction.refunds.length === 0 &&
      sinceSale <= limits.reversalWindowMs
    ) {
      transaction.status = "REVERSED";
      transaction.refunds.push({ type: "REVERSED", amount, at, authorizationCode: null });
      changed();
      // A reversal answers its type only.
      return json(200, { type: "REVERSED" });
    }
    if (transaction.paymentType === "VD" || transaction.paymentType === "VP") {
      throw new FakeRefusal(422, "Debit or prepaid transactions only allow reverses, not nullifications");
    }
    if (sinceSale > limits.nullifyWindowMs) throw new FakeRefusal(422, "Nullification period exceeded");
    const left = balance - amount;
    const authorizationCode = String(randomInt(100_000, 1_000_000));
    transaction.balance = left;
    transaction.status = left === 0 ? "NULLIFIED" : "PARTIALLY_NULLIFIED";
    transaction.refunds.push({ type: "NULLIFIED", amount, at, authorizationCode });
    changed();
    return json(200, {
      type: "NULLIFIED",
      authorization_code: authorizationCode,
      authorization_date: at.toISOString(),
      nullified_amount: amount,
      balance: left,
      response_code: 0,
    });
  }

  // ── The payer's side ───────────────────────────────────────────────────────────────────────────────────

  function returnFields(transaction: WebpayFakeTransaction): PayResult {
    const fields: Record<string, string> =
      transaction.payer === "aborted"
        ? {
            TBK_TOKEN: transaction.token,
            TBK_ORDEN_COMPRA: transaction.buyOrder,
            TBK_ID_SESION: transaction.sessionId,
          }
        : transaction.payer === "timeout"
          ? { TBK_ORDEN_COMPRA: transaction.buyOrder, TBK_ID_SESION: transaction.sessionId }
          : { token_ws: transaction.token };
    return { returnUrl: transaction.returnUrl, method: returnMethod, fields };
  }

  /** The payer's decision; a FakeRefusal when the form is no longer open. */
  function decide(
    transaction: WebpayFakeTransaction,
    outcome: PayerOutcome,
    card: TestCard | undefined,
    at: Date,
  ) {
    settle(transaction, at);
    if (transaction.payer !== "pending") {
      throw new FakeRefusal(409, `the payer already finished (${transaction.payer})`);
    }
    if (outcome === "abort") transaction.payer = "aborted";
    else if (outcome === "timeout") transaction.payer = "timeout";
    else {
      const chosen = card ?? testCard(outcome === "approve" ? APPROVED_TEST_CARD : REJECTED_TEST_CARD);
      if (!chosen) throw new FakeRefusal(400, "unknown test card");
      transaction.payer = chosen.approved ? "approved" : "rejected";
      transaction.cardLast4 = chosen.number.slice(-4);
      transaction.paymentType = chosen.paymentType;
    }
    transaction.returnedAt = at;
    changed();
    return returnFields(transaction);
  }

  function pay(token: string, outcome: PayerOutcome, cardNumber?: string): PayResult {
    const transaction = known(token);
    const card = cardNumber === undefined ? undefined : testCard(cardNumber);
    if (cardNumber !== undefined && !card) throw new FakeRefusal(400, "unknown test card");
    if (card && outcome !== (card.approved ? "approve" : "reject")) {
      throw new FakeRefusal(400, `card ${card.number} does not ${outcome}`);
    }
    return decide(transaction, outcome, card, now());
  }

  // ── Pages ──────────────────────────────────────────────────────────────────────────────────────────────

  const OUTCOME_TEXT: Record<PayerState, string> = {
    pending: "",
    approved: "Pago aprobado. Volviendo al comercio…",
    rejected: "Pago rechazado. Volviendo al comercio…",
    aborted: "Compra anulada. Volviendo al comercio…",
    timeout: "Se agotó el tiempo para pagar. Volviendo al comercio…",
  };

  function returnPage(transaction: WebpayFakeTransaction): Response {
    const result = returnFields(transaction);
    const inputs = Object.entries(result.fields)
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join("\n");
    return page({
      status: 200,
      title: "Volviendo al comercio",
      body: `<p role="status">${escapeHtml(OUTCOME_TEXT[transaction.payer])}</p>
<form id="volver" method="${result.method.toLowerCase()}" action="${escapeHtml(result.returnUrl)}">
${inputs}
<div class="actions"><button type="submit" class="pay">Volver al comercio</button></div>
</form>`,
      script: `document.getElementById("volver").submit();`,
      formTargets: [originOf(result.returnUrl)],
    });
  }

  function formPage(transaction: WebpayFakeTransaction, base: string, at: Date, error?: string): Response {
    const left = Math.max(0, transaction.createdAt.getTime() + limits.formTimeoutMs - at.getTime());
    const minutes = Math.max(1, Math.ceil(left / MINUTE));
    const action = `${base}/webpayserver/pagar`;
    const describedBy = error ? "ayuda-tarjeta error-tarjeta" : "ayuda-tarjeta";
    return page({
      status: error ? 422 : 200,
      title: "Webpay de prueba",
      body: `<p class="note">Simulador local del formulario de pago de Transbank. No se cobra dinero real.</p>
<dl>
<dt>Comercio</dt><dd>${escapeHtml(commerceName)}</dd>
<dt>Monto</dt><dd>${escapeHtml(pesos.format(transaction.amount))}</dd>
<dt>Orden de compra</dt><dd>${escapeHtml(transaction.buyOrder)}</dd>
</dl>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token_ws" value="${escapeHtml(transaction.token)}">
<label for="numero-tarjeta">Número de tarjeta</label>
<input id="numero-tarjeta" name="card_number" inputmode="numeric" autocomplete="off" required aria-describedby="${describedBy}"${error ? ' aria-invalid="true"' : ""}>
${error ? `<p id="error-tarjeta" class="error">${escapeHtml(error)}</p>` : ""}
<p id="ayuda-tarjeta" class="help">Tarjetas de prueba: VISA 4051 8856 0044 6623 (aprobada) y Mastercard 5186 0595 5959 0568 (rechazada).</p>
<div class="actions">
<button type="submit" name="action" value="pay" class="pay">Pagar</button>
<button type="submit" name="action" value="abort" class="abort" formnovalidate>Anular compra y volver</button>
</div>
</form>
<p class="note">Tienes ${minutes} ${minutes === 1 ? "minuto" : "minutos"} para completar el pago.</p>
<form id="tiempo" method="post" action="${escapeHtml(action)}"><input type="hidden" name="token_ws" value="${escapeHtml(transaction.token)}"><input type="hidden" name="action" value="timeout"></form>`,
      // Webpay's form ends by itself when its time is up and sends the payer back without a token.
      script: `setTimeout(function(){document.getElementById("tiempo").submit();}, ${left});`,
      formTargets: [originOf(base)],
    });
  }

  async function formRoute(request: Request, url: URL, base: string, at: Date): Promise<Response> {
    const body = request.method === "POST" ? await readForm(request) : new URLSearchParams();
    const token = body.get("token_ws") ?? url.searchParams.get("token_ws") ?? "";
    const transaction = TOKEN_PATTERN.test(token) ? find(token) : undefined;
    if (!transaction)
      return messagePage(404, "Transacción no encontrada", "La transacción no existe o ya expiró.");
    settle(transaction, at);
    if (transaction.payer === "timeout" && transaction.returnedAt === null) {
      transaction.returnedAt = at;
      changed();
      return returnPage(transaction);
    }
    if (transaction.payer !== "pending") {
      return messagePage(409, "Transacción ya procesada", "Esta transacción ya fue procesada.");
    }
    return formPage(transaction, base, at);
  }

  async function payRoute(request: Request, base: string, at: Date): Promise<Response> {
    const body = await readForm(request);
    const token = body.get("token_ws") ?? "";
    const transaction = TOKEN_PATTERN.test(token) ? find(token) : undefined;
    if (!transaction)
      return messagePage(404, "Transacción no encontrada", "La transacción no existe o ya expiró.");
    settle(transaction, at);
    if (transaction.payer === "timeout") {
      if (transaction.returnedAt === null) transaction.returnedAt = at;
      changed();
      return returnPage(transaction);
    }
    if (transaction.payer !== "pending") {
      return messagePage(409, "Transacción ya procesada", "Esta transacción ya fue procesada.");
    }
    const action = body.get("action");
    if (action === "abort" || action === "timeout") {
      decide(transaction, action, undefined, at);
      return returnPage(transaction);
    }
    const card = testCard(body.get("card_number") ?? "");
    if (!card) {
      return formPage(
        transaction,
        base,
        at,
        "Esa tarjeta no es una tarjeta de prueba. Usa una de las tarjetas indicadas abajo.",
      );
    }
    decide(transaction, card.approved ? "approve" : "reject", card, at);
    return returnPage(transaction);
  }

  // ── Control routes ─────────────────────────────────────────────────────────────────────────────────────

  async function control(path: string, request: Request): Promise<Response> {
    let body: unknown = {};
    if (request.method === "POST") {
      const text = await request.text();
      try {
        body = text ? (JSON.parse(text) as unknown) : {};
      } catch {
        return json(400, { error: "invalid JSON" });
      }
    }
    const input = isRecord(body) ? body : {};
    if (path === "/__fake/state" && request.method === "GET") return json(200, state);
    if (request.method !== "POST") return json(405, { error: "method not allowed" });
    if (path === "/__fake/reset") {
      reset();
      return json(200, { ok: true });
    }
    if (path === "/__fake/fail") {
      const operation = input.operation;
      if (!["create", "commit", "status", "refund", "any"].includes(String(operation))) {
        return json(400, { error: "operation: create, commit, status, refund or any" });
      }
      if (
        input.status === undefined &&
        input.delayMs === undefined &&
        input.delayAfterApplyMs === undefined
      ) {
        return json(400, { error: "status, delayMs or delayAfterApplyMs" });
      }
      fail({
        operation: operation as WebpayFakeFailure["operation"],
        token: typeof input.token === "string" ? input.token : undefined,
        times: typeof input.times === "number" ? input.times : 1,
        status: typeof input.status === "number" ? input.status : undefined,
        delayMs: typeof input.delayMs === "number" ? input.delayMs : undefined,
        delayAfterApplyMs: typeof input.delayAfterApplyMs === "number" ? input.delayAfterApplyMs : undefined,
        body: input.body,
      });
      return json(200, { ok: true });
    }
    if (path === "/__fake/pay") {
      const outcome = input.outcome;
      if (
        typeof input.token !== "string" ||
        !["approve", "reject", "abort", "timeout"].includes(String(outcome))
      ) {
        return json(400, { error: "token and outcome (approve, reject, abort or timeout)" });
      }
      try {
        return json(
          200,
          pay(
            input.token,
            outcome as PayerOutcome,
            typeof input.cardNumber === "string" ? input.cardNumber : undefined,
          ),
        );
      } catch (error) {
        if (error instanceof FakeRefusal) return json(error.status, { error: error.message });
        throw error;
      }
    }
    if (path === "/__fake/clock") {
      const advanceMs = input.advanceMs;
      if (typeof advanceMs !== "number" || !Number.isFinite(advanceMs)) {
        return json(400, { error: "advanceMs: a number of milliseconds" });
      }
      advanceClock(advanceMs);
      return json(200, { offsetMs: state.clockOffsetMs, now: now().toISOString() });
    }
    return json(404, { error: "unknown control route" });
  }

  // ── Routing ────────────────────────────────────────────────────────────────────────────────────────────

  async function api(request: Request, path: string, base: string): Promise<Response> {
    const route = operationOf(request.method, path);
    const call: WebpayFakeCall = {
      operation: route?.operation ?? "unknown",
      method: request.method,
      path,
      status: 0,
      at: now(),
    };
    state.calls.push(call);
    if (state.calls.length > 1000) state.calls.shift();
    let failure: WebpayFakeFailure | undefined;
    const answer = await (async () => {
      if (!route) return apiError(404, "Not found");
      failure = takeFailure(route.operation, route.token);
      if (failure?.delayMs) await delay(failure.delayMs);
      if (failure?.status !== undefined) {
        if (failure.status >= 200 && failure.status < 300) return json(failure.status, failure.body ?? {});
        if (failure.body !== undefined) return json(failure.status, failure.body);
        return apiError(failure.status, failure.status >= 500 ? "Internal server error" : "Injected failure");
      }
      if (
        request.headers.get("tbk-api-key-id") !== commerceCode ||
        request.headers.get("tbk-api-key-secret") !== apiKey
      ) {
        return apiError(401, "Not Authorized");
      }
      let body: unknown;
      if (request.method === "POST" || request.method === "PUT") {
        if (!(request.headers.get("content-type") ?? "").includes("application/json")) {
          return apiError(415, "Content type not supported");
        }
        const text = await request.text();
        try {
          body = text ? (JSON.parse(text) as unknown) : {};
        } catch {
          return apiError(400, "Invalid JSON");
        }
      }
      const at = now();
      try {
        switch (route.operation) {
          case "create":
            return json(200, { token: create(body, at).token, url: `${base}${WEBPAY_FORM_PATH}` });
          case "commit":
            return commit(route.token, at);
          case "status":
            return readStatus(route.token, at);
          case "refund":
            return refund(route.token, body, at);
          default:
            return apiError(404, "Not found");
        }
      } catch (error) {
        if (error instanceof FakeRefusal) return apiError(error.status, error.message);
        throw error;
      }
    })();
    // The operation is done (or refused) on Webpay's side; only its answer is held back.
    if (failure?.delayAfterApplyMs && failure.status === undefined) await delay(failure.delayAfterApplyMs);
    call.status = answer.status;
    return answer;
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let path = url.pathname;
    if (basePath) {
      if (path !== basePath && !path.startsWith(`${basePath}/`)) return apiError(404, "Not found");
      path = path.slice(basePath.length) || "/";
    }
    const base = (options.publicUrl ?? `${url.origin}${basePath}`).replace(/\/+$/, "");
    if (path.startsWith("/__fake/")) {
      if (!controlRoutes) return apiError(404, "Not found");
      return control(path, request);
    }
    if (path.startsWith(WEBPAY_API_PATH)) return api(request, path, base);
    const at = now();
    if (path === WEBPAY_FORM_PATH && (request.method === "GET" || request.method === "POST")) {
      return formRoute(request, url, base, at);
    }
    if (path === "/webpayserver/pagar" && request.method === "POST") return payRoute(request, base, at);
    return messagePage(404, "Página no encontrada", "Esta dirección no existe en el Webpay de prueba.");
  }

  function fail(failure: WebpayFakeFailure) {
    state.failures.push({ ...failure, times: failure.times ?? 1 });
  }

  function advanceClock(ms: number) {
    state.clockOffsetMs += ms;
  }

  function reset() {
    state.transactions.length = 0;
    state.calls.length = 0;
    state.failures.length = 0;
    state.clockOffsetMs = 0;
    changed();
  }

  return {
    handle,
    state,
    pay,
    fail,
    advanceClock,
    now,
    find,
    reset,
    close() {
      for (const entry of waiting) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      waiting.clear();
    },
  };
}

export function testCard(number: string): TestCard | undefined {
  const digits = number.replace(/[\s-]/g, "");
  return WEBPAY_TEST_CARDS.find((card) => card.number === digits);
}

function date(value: unknown): Date | null {
  return typeof value === "string" ? new Date(value) : null;
}

/** A saved transaction (dates as ISO strings) back as one the fake holds. */
export function reviveTransaction(saved: Record<string, unknown>): WebpayFakeTransaction {
  const transaction = saved as unknown as WebpayFakeTransaction;
  return {
    ...transaction,
    createdAt: date(saved.createdAt) ?? new Date(0),
    returnedAt: date(saved.returnedAt),
    committedAt: date(saved.committedAt),
    refunds: (transaction.refunds ?? []).map((item) => ({ ...item, at: new Date(item.at) })),
  };
}

// ── A standalone server on 127.0.0.1 ─────────────────────────────────────────────────────────────────────

export interface WebpayFakeServer {
  /** `http://127.0.0.1:<port>`: the client's `baseUrl` and where `/__fake/*` is. */
  url: string;
  port: number;
  fake: WebpayFake;
  close(): Promise<void>;
}

const BODY_LIMIT = 256 * 1024;

export async function startWebpayFake(
  options: WebpayFakeOptions & { port?: number } = {},
): Promise<WebpayFakeServer> {
  const fake = createWebpayFake(options);
  const server = http.createServer((incoming, outgoing) => {
    (async () => {
      const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "127.0.0.1"}`);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
        else if (value !== undefined) headers.set(name, value);
      }
      const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
      let size = 0;
      const body = hasBody
        ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>).pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform(chunk, controller) {
                size += chunk.byteLength;
                if (size > BODY_LIMIT) controller.error(new Error("body too large"));
                else controller.enqueue(chunk);
              },
            }),
          )
        : undefined;
      const request = new Request(url, {
        method: incoming.method,
        headers,
        body,
        ...(body ? { duplex: "half" } : {}),
      } as RequestInit);
      const response = await fake.handle(request);
      const text = Buffer.from(await response.arrayBuffer());
      outgoing.writeHead(response.status, {
        ...Object.fromEntries(response.headers),
        "content-length": String(text.byteLength),
      });
      outgoing.end(text);
    })().catch(() => {
      if (!outgoing.headersSent) {
        outgoing.writeHead(500, { "content-type": "application/json" });
        outgoing.end(JSON.stringify({ error_message: "Internal server error" }));
      } else outgoing.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    fake,
    async close() {
      fake.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
