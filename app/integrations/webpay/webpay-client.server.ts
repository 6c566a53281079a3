import type { WebpayPlus } from "transbank-sdk";
import type { z } from "zod";
import { createCircuitBreaker, type CircuitBreaker } from "../circuit-breaker";
import {
  backoffDelay,
  defaultSleep,
  isIntegrationError,
  redact,
  type BackoffOptions,
  type Sleep,
} from "../http.server";
import {
  BUY_ORDER_MAX_LENGTH,
  BUY_ORDER_PATTERN,
  RETURN_URL_MAX_LENGTH,
  SESSION_ID_MAX_LENGTH,
  TOKEN_PATTERN,
  WEBPAY_DEMO_PATH,
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
  classifySdkErrorMessage,
  toWebpayRefund,
  toWebpayTransaction,
  webpayCreateResponseSchema,
  webpayRefundResponseSchema,
  webpayTransactionResponseSchema,
  type WebpayErrorKind,
  type WebpayRefund,
  type WebpayTransaction,
} from "./webpay-schemas";

export type { WebpayRefund, WebpayTransaction, WebpayTransactionStatus } from "./webpay-schemas";

/**
 * Transbank Webpay Plus through Transbank's official SDK (`transbank-sdk`, ADR 036): every call has a deadline,
 * every answer is parsed by zod (amounts in whole pesos), and every failure is a `WebpayError` whose message and
 * fields never carry the API key.
 *
 * Only `status()` is retried here (twice, with backoff): it is a read. `create`, `commit` and `refund` are not:
 * a timeout may hide a call that did happen at Transbank (a second `create` would leave a second token for the same
 * order, a second `refund` could nullify twice, a second `commit` answers 422), and none takes an idempotency key.
 * The caller records its intent first and reconciles an unknown outcome with `status()` (ADR 036).
 */

export type WebpayOperation = "create" | "commit" | "status" | "refund";

export class WebpayError extends Error {
  readonly kind: WebpayErrorKind;
  /** Transbank's HTTP status; null when no answer came (timeout, network) or the call was refused before sending. */
  readonly httpStatus: number | null;
  /** Timeouts and unavailability may pass; anything else will fail the same way again. */
  readonly retryable: boolean;
  readonly operation: WebpayOperation;
  /** Transbank's `error_message` (or the transport's), for logs; never shown to a patient. */
  readonly detail: string;

  constructor(init: {
    kind: WebpayErrorKind;
    httpStatus: number | null;
    operation: WebpayOperation;
    detail: string;
    message?: string;
    cause?: unknown;
  }) {
    super(
      init.message ??
        `webpay ${init.operation}: ${init.kind}${init.httpStatus === null ? "" : ` (HTTP ${init.httpStatus})`}: ${init.detail}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = "WebpayError";
    this.kind = init.kind;
    this.httpStatus = init.httpStatus;
    this.retryable = init.kind === "timeout" || init.kind === "unavailable";
    this.operation = init.operation;
    this.detail = init.detail;
  }
}

export function isWebpayError(error: unknown): error is WebpayError {
  return error instanceof WebpayError;
}

export interface WebpayClient {
  create(input: { buyOrder: string; sessionId: string; amount: number; returnUrl: string }): Promise<{
    token: string;
    url: string;
  }>;
  commit(token: string): Promise<WebpayTransaction>;
  status(token: string): Promise<WebpayTransaction>;
  refund(token: string, amount: number): Promise<WebpayRefund>;
}

export interface WebpayClientConfig {
  /** 12 digits (Transbank's `Tbk-Api-Key-Id`). */
  commerceCode: string;
  /** `Tbk-Api-Key-Secret`; never logged. */
  apiKey: string;
  /** Transbank's host (`https://webpay3g.transbank.cl`), the integration one, or a fake's base URL. */
  baseUrl: string;
  /** Per attempt, from sending to the end of the answer. */
  timeoutMs: number;
  /** Further attempts of `status()` after a timeout or unavailability (default 2). */
  statusRetries?: number;
  backoff?: BackoffOptions;
  sleep?: Sleep;
}

const SYSTEM = "webpay";

/**
 * Transbank's hosts: the SDK's `Environment` constants, written here so that the SDK loads only at the first payment
 * (ADR 050); `webpay-schemas.test.ts` checks they still equal the SDK's.
 */
export const WEBPAY_HOSTS = {
  production: "https://webpay3g.transbank.cl",
  integration: "https://webpay3gint.transbank.cl",
} as const;

/** Transbank's hosts by name; anything else is taken as a URL (a fake). */
export function webpayEnvironmentUrl(environment: string): string {
  if (environment === "production") return WEBPAY_HOSTS.production;
  if (environment === "integration") return WEBPAY_HOSTS.integration;
  return environment.replace(/\/+$/, "");
}

export type WebpayMode = "live" | "demo" | "off";

/**
 * The client's configuration for this process (ADR 036): live with the configured commerce; in demo mode the public
 * integration commerce against the fake the app itself serves at `${publicBaseUrl}/webpay-demo`; none when off.
 */
export function webpayClientConfig(settings: {
  mode: WebpayMode;
  commerceCode?: string;
  apiKey?: string;
  environment?: string;
  timeoutMs: number;
  publicBaseUrl: string;
}): WebpayClientConfig | null {
  if (settings.mode === "off") return null;
  if (settings.mode === "demo") {
    return {
      commerceCode: WEBPAY_INTEGRATION_COMMERCE_CODE,
      apiKey: WEBPAY_INTEGRATION_API_KEY,
      baseUrl: `${settings.publicBaseUrl.replace(/\/+$/, "")}${WEBPAY_DEMO_PATH}`,
      timeoutMs: settings.timeoutMs,
    };
  }
  if (!settings.commerceCode || !settings.apiKey || !settings.environment) {
    throw new Error("webpay: live mode needs a commerce code, an API key and an environment");
  }
  return {
    commerceCode: settings.commerceCode,
    apiKey: settings.apiKey,
    baseUrl: webpayEnvironmentUrl(settings.environment),
    timeoutMs: settings.timeoutMs,
  };
}

function refuse(operation: WebpayOperation, detail: string): WebpayError {
  return new WebpayError({ kind: "rejected", httpStatus: null, operation, detail });
}

function checkToken(operation: WebpayOperation, token: string) {
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token)) {
    throw refuse(operation, "token: 1 to 64 letters or digits expected");
  }
}

function checkPesos(operation: WebpayOperation, field: string, amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw refuse(operation, `${field}: a positive whole number of pesos expected`);
  }
}

function checkCreate(input: { buyOrder: string; sessionId: string; amount: number; returnUrl: string }) {
  const { buyOrder, sessionId, amount, returnUrl } = input;
  if (
    typeof buyOrder !== "string" ||
    buyOrder.length > BUY_ORDER_MAX_LENGTH ||
    !BUY_ORDER_PATTERN.test(buyOrder)
  ) {
    throw refuse("create", `buyOrder: 1 to ${BUY_ORDER_MAX_LENGTH} letters, digits or |_=&%.,~:/?[+!@()>-`);
  }
  // The SDK refuses a blank session id; a control character has no business in it either.
  if (
    typeof sessionId !== "string" ||
    sessionId.trim() === "" ||
    sessionId.length > SESSION_ID_MAX_LENGTH ||
    // oxlint-disable-next-line no-control-regex -- the control characters are what is refused
    /[\u0000-\u001f\u007f]/.test(sessionId)
  ) {
    throw refuse("create", `sessionId: 1 to ${SESSION_ID_MAX_LENGTH} printable characters`);
  }
  checkPesos("create", "amount", amount);
  let url: URL | undefined;
  try {
    url = new URL(returnUrl);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || returnUrl.length > RETURN_URL_MAX_LENGTH) {
    throw refuse("create", `returnUrl: an http(s) URL of at most ${RETURN_URL_MAX_LENGTH} characters`);
  }
}

/** Rejects with a `timeout` WebpayError when `work` has not settled within `ms`. */
function withDeadline<T>(work: Promise<T>, ms: number, operation: WebpayOperation): Promise<T> {
  // The SDK passes the timeout to axios, but axios's node adapter arms it as a socket *idle* timeout
  // (req.setTimeout): an answer that trickles in slowly would never hit it. This bounds the whole call.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new WebpayError({
            kind: "timeout",
            httpStatus: null,
            operation,
            detail: `no answer within ${ms} ms`,
          }),
        ),
      ms,
    );
  });
  // The losing SDK promise still settles later (axios aborts on its own timeout): keep that from being unhandled.
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function parse<Schema extends z.ZodType>(operation: WebpayOperation, schema: Schema, body: unknown) {
  const result = schema.safeParse(body);
  if (result.success) return result.data as z.output<Schema>;
  const issues = result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  throw new WebpayError({ kind: "invalid_response", httpStatus: 200, operation, detail: issues });
}

export function createWebpayClient(config: WebpayClientConfig): WebpayClient {
  const { commerceCode, apiKey, timeoutMs, statusRetries = 2, sleep = defaultSleep } = config;
  if (!/^\d{12}$/.test(commerceCode)) throw new Error("webpay: the commerce code has 12 digits");
  if (!apiKey) throw new Error("webpay: an API key is required");
  const environment = webpayEnvironmentUrl(config.baseUrl);
  // The SDK's timeout (axios) frees the socket; withDeadline bounds the call. Both use the same figure. The SDK (~100
  // modules with axios) is loaded at the first call, not at start (ADR 050).
  let sdkTransaction: Promise<InstanceType<typeof WebpayPlus.Transaction>> | undefined;
  const transaction = () =>
    (sdkTransaction ??= import("transbank-sdk").then(
      (sdk) => new sdk.WebpayPlus.Transaction(new sdk.Options(commerceCode, apiKey, environment, timeoutMs)),
    ));
  // ADR 017's breaker, on the calls that move no money (create, status): while Transbank is down a patient hears
  // so at once instead of after a timeout. commit and refund always reach Transbank when asked.
  const breaker: CircuitBreaker = createCircuitBreaker({
    system: SYSTEM,
    isFailure: (error) => isWebpayError(error) && error.retryable,
  });
  const clean = (text: string) => redact(text, [apiKey]);

  function failure(operation: WebpayOperation, error: unknown): WebpayError {
    if (isWebpayError(error)) return error;
    if (isIntegrationError(error) && error.code === "CIRCUIT_OPEN") {
      return new WebpayError({ kind: "unavailable", httpStatus: null, operation, detail: "circuit open" });
    }
    if (error instanceof Error && error.name === "TransbankError") {
      const classified = classifySdkErrorMessage(clean(error.message));
      return new WebpayError({ ...classified, operation, detail: classified.detail });
    }
    // The SDK's own argument checks throw plain Errors; ours run first, so reaching this is a bug.
    return new WebpayError({
      kind: "rejected",
      httpStatus: null,
      operation,
      detail: clean(error instanceof Error ? error.message : String(error)),
    });
  }

  async function call<T>(
    operation: WebpayOperation,
    run: () => Promise<unknown>,
    read: (body: unknown) => T,
  ) {
    let body: unknown;
    try {
      body = await withDeadline(Promise.resolve().then(run), timeoutMs, operation);
    } catch (error) {
      throw failure(operation, error);
    }
    return read(body);
  }

  return {
    async create(input) {
      checkCreate(input);
      try {
        return await breaker.run(() =>
          call(
            "create",
            async () =>
              (await transaction()).create(input.buyOrder, input.sessionId, input.amount, input.returnUrl),
            (body) => parse("create", webpayCreateResponseSchema, body),
          ),
        );
      } catch (error) {
        throw failure("create", error);
      }
    },

    async commit(token) {
      checkToken("commit", token);
      return call(
        "commit",
        async () => (await transaction()).commit(token),
        (body) => toWebpayTransaction(parse("commit", webpayTransactionResponseSchema, body)),
      );
    },

    async status(token) {
      checkToken("status", token);
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await breaker.run(() =>
            call(
              "status",
              async () => (await transaction()).status(token),
              (body) => toWebpayTransaction(parse("status", webpayTransactionResponseSchema, body)),
            ),
          );
        } catch (caught) {
          const error = failure("status", caught);
          const circuitOpen = isIntegrationError(caught);
          if (!error.retryable || circuitOpen || attempt > statusRetries) throw error;
          await sleep(backoffDelay(attempt, config.backoff));
        }
      }
    },

    async refund(token, amount) {
      checkToken("refund", token);
      checkPesos("refund", "amount", amount);
      return call(
        "refund",
        async () => (await transaction()).refund(token, amount),
        (body) => toWebpayRefund(parse("refund", webpayRefundResponseSchema, body)),
      );
    },
  };
}
