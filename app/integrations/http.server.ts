import type { z } from "zod";

/**
 * JSON over HTTP for every integration client (WhatsApp, Dentalink, …): a timeout per attempt, bounded retries
 * with exponential backoff and jitter on retryable failures only, the response parsed by zod, and one error type
 * (`IntegrationError`) whose message, body and logs never carry the credentials (they reach logs and staff pages).
 */

/** Why a call failed when there was no HTTP answer to read the reason from. */
export type TransportFailure = "TIMEOUT" | "NETWORK";

export interface IntegrationErrorInit {
  system: string;
  /** HTTP status, or null when no answer arrived (timeout, refused connection, reset). */
  status: number | null;
  /** Parsed JSON of the answer when it was JSON, else a short text excerpt; null without an answer. */
  body: unknown;
  /** The vendor's error code (e.g. Infobip `UNAUTHORIZED`), `TIMEOUT`/`NETWORK`, or `INVALID_RESPONSE`. */
  code?: string;
  message: string;
  /** How many HTTP attempts were made before giving up. */
  attempts?: number;
  /** A `Retry-After` the helper did not wait for (longer than its cap): the caller should not come back sooner. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class IntegrationError extends Error {
  readonly system: string;
  readonly status: number | null;
  readonly body: unknown;
  readonly code: string | undefined;
  readonly attempts: number;
  readonly retryAfterMs: number | undefined;

  constructor(init: IntegrationErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "IntegrationError";
    this.system = init.system;
    this.status = init.status;
    this.body = init.body;
    this.code = init.code;
    this.attempts = init.attempts ?? 1;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** 429, 5xx, timeouts and network failures may succeed later; any other answer will not. */
  get retryable(): boolean {
    return this.status === null || isRetryableStatus(this.status);
  }
}

export function isIntegrationError(error: unknown): error is IntegrationError {
  return error instanceof IntegrationError;
}

/** Whether a later attempt may succeed: only an `IntegrationError` that says so (anything else is a bug). */
export function isRetryableError(error: unknown): boolean {
  return isIntegrationError(error) && error.retryable;
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

export interface BackoffOptions {
  /** Delay scale of the first retry (ms). */
  baseMs?: number;
  /** Upper bound of one computed delay (ms). */
  maxMs?: number;
  /** Longest `Retry-After` waited for in process; a longer one ends the retries (the caller reschedules). */
  retryAfterCapMs?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = {
  baseMs: 250,
  maxMs: 4_000,
  retryAfterCapMs: 10_000,
};

/**
 * Delay before retry number `retry` (1 = the first retry): exponential with "equal jitter", i.e. uniformly in
 * [half, whole] of `min(maxMs, baseMs · 2^(retry-1))`, so clients that failed together do not come back together
 * while the delay still grows.
 */
export function backoffDelay(
  retry: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
) {
  const { baseMs, maxMs } = { ...DEFAULT_BACKOFF, ...options };
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** `Retry-After` in ms (delta-seconds or an HTTP date, RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Every HTTP-date form names the month; without this, Date.parse reads "-1" as a year.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; retryAfterMs?: number };

/**
 * Whether to try again after `error` on attempt `attempt` (1-based) of at most `retries + 1`, and how long to
 * wait. A `Retry-After` (429/503) is honoured when it is longer than the backoff, up to `retryAfterCapMs`.
 */
export function retryDecision(
  error: IntegrationError,
  attempt: number,
  retries: number,
  options: BackoffOptions = {},
  retryAfterMs?: number,
  random: () => number = Math.random,
): RetryDecision {
  if (!error.retryable) return { retry: false };
  if (attempt > retries) return { retry: false, retryAfterMs };
  const { retryAfterCapMs } = { ...DEFAULT_BACKOFF, ...options };
  if (retryAfterMs !== undefined && retryAfterMs > retryAfterCapMs) return { retry: false, retryAfterMs };
  return { retry: true, delayMs: Math.max(backoffDelay(attempt, options, random), retryAfterMs ?? 0) };
}

/**
 * Longest time `requestJson` can take with these settings (every attempt timing out, the longest delays), so a
 * caller can check it stays below its own lease (the outbox's).
 */
export function worstCaseDurationMs(
  timeoutMs: number,
  retries: number,
  options: BackoffOptions = {},
): number {
  const { retryAfterCapMs } = { ...DEFAULT_BACKOFF, ...options };
  let total = timeoutMs * (retries + 1);
  for (let retry = 1; retry <= retries; retry += 1) {
    total += Math.max(
      backoffDelay(retry, options, () => 1),
      retryAfterCapMs,
    );
  }
  return total;
}

const EXCERPT_LENGTH = 300;

/** The first characters of a body, for errors and logs. */
export function excerpt(text: string, max: number = EXCERPT_LENGTH): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Replaces every secret (API keys, tokens) in a text; secrets shorter than 4 characters are ignored. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join("[redacted]");
  }
  return result;
}

/** The credentials inside request headers (the token after the scheme of `Authorization`, API-key headers). */
export function secretsOf(headers: Record<string, string>): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === "authorization" || lower === "proxy-authorization") {
      secrets.push(value);
      const token = value.replace(/^\S+\s+/, "");
      if (token !== value) secrets.push(token);
    } else if (lower.includes("key") || lower.includes("token") || lower.includes("secret")) {
      secrets.push(value);
    }
  }
  return secrets.toSorted((a, b) => b.length - a.length);
}

export type Sleep = (ms: number) => Promise<void>;

export const defaultSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RequestJsonOptions<Schema extends z.ZodType> {
  /** Names the vendor in errors and logs ("whatsapp", "dentalink"). */
  system: string;
  url: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers?: Record<string, string>;
  /** Sent as JSON when defined. */
  body?: unknown;
  /** Per attempt, from sending the request to the end of the answer's body. */
  timeoutMs: number;
  /**
   * When the whole call must be over (`Date.now()` clock): each attempt's timeout is cut to what is left, and no
   * retry starts or waits beyond it. For requests a person is waiting on.
   */
  deadline?: number;
  /**
   * Further attempts after the first on a retryable failure. Only for calls that are safe to repeat (reads, or
   * writes carrying an idempotency key the vendor honours): a timeout may hide a request that did succeed.
   */
  retries?: number;
  backoff?: BackoffOptions;
  fetch?: typeof globalThis.fetch;
  sleep?: Sleep;
  random?: () => number;
  /** Parses a successful (2xx) answer's JSON. */
  schema: Schema;
  /** The vendor's error code inside a parsed error body. */
  errorCode?: (body: unknown) => string | undefined;
  /** Further values to keep out of errors (the credentials in `headers` are always kept out). */
  secrets?: readonly string[];
  /** Told of each failed attempt that will be retried (for logs: the error carries no secrets). */
  onRetry?: (info: { attempt: number; delayMs: number; error: IntegrationError }) => void;
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The URL without query and fragment (where a careless vendor might expect a key) for messages. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

/**
 * One JSON call with timeout, retries and zod parsing. Resolves with the parsed 2xx body; rejects only with an
 * `IntegrationError` (also for a network failure or an answer that does not match the schema).
 */
export async function requestJson<Schema extends z.ZodType>(
  options: RequestJsonOptions<Schema>,
): Promise<z.output<Schema>> {
  const {
    system,
    url,
    method = "GET",
    headers = {},
    body,
    timeoutMs,
    retries = 0,
    backoff = {},
    fetch: fetchImpl = globalThis.fetch,
    sleep = defaultSleep,
    random = Math.random,
    schema,
    errorCode,
    deadline,
  } = options;
  const secrets = [...secretsOf(headers), ...(options.secrets ?? [])];
  const clean = (text: string) => redact(text, secrets);
  const target = `${method} ${describeUrl(url)}`;
  const requestHeaders = new Headers({ accept: "application/json" });
  for (const [name, value] of Object.entries(headers)) requestHeaders.set(name, value);
  if (body !== undefined && !requestHeaders.has("content-type")) {
    requestHeaders.set("content-type", "application/json");
  }
  const payload = body === undefined ? undefined : JSON.stringify(body);

  for (let attempt = 1; ; attempt += 1) {
    let error: IntegrationError;
    let retryAfterMs: number | undefined;
    const attemptMs = deadline === undefined ? timeoutMs : Math.min(timeoutMs, deadline - Date.now());
    if (attemptMs <= 0) {
      throw new IntegrationError({
        system,
        status: null,
        body: null,
        code: "TIMEOUT",
        message: `${system}: ${target} not sent: the caller's deadline has passed`,
        attempts: attempt - 1,
      });
    }
    try {
      const response = await fetchImpl(url, {
        method,
        headers: requestHeaders,
        body: payload,
        // A vendor API has no business redirecting; a 3xx is reported as it is, not followed with the key.
        redirect: "manual",
        signal: AbortSignal.timeout(attemptMs),
      });
      const text = await response.text();
      const parsed = parseBody(text);
      if (response.ok) {
        if (parsed === undefined) {
          throw new IntegrationError({
            system,
            status: response.status,
            body: clean(excerpt(text)),
            code: "INVALID_RESPONSE",
            message: `${system}: ${target} answered ${response.status} with a body that is not JSON`,
            attempts: attempt,
          });
        }
        const result = schema.safeParse(parsed);
        if (result.success) return result.data;
        const issues = result.error.issues
          .slice(0, 3)
          .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
          .join("; ");
        throw new IntegrationError({
          system,
          status: response.status,
          body: clean(excerpt(text)),
          code: "INVALID_RESPONSE",
          message: clean(
            `${system}: ${target} answered ${response.status} in an unexpected shape (${issues})`,
          ),
          attempts: attempt,
        });
      }
      const errorBody = parsed === undefined ? clean(excerpt(text)) : redactDeep(parsed, secrets);
      const vendorCode = parsed === undefined ? undefined : errorCode?.(parsed);
      retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
      error = new IntegrationError({
        system,
        status: response.status,
        body: errorBody,
        code: vendorCode,
        message: clean(
          `${system}: ${target} answered ${response.status}${vendorCode ? ` ${vendorCode}` : ""}`,
        ),
        attempts: attempt,
      });
    } catch (caught) {
      if (isIntegrationError(caught)) throw caught;
      const timedOut =
        caught instanceof Error && (caught.name === "TimeoutError" || caught.name === "AbortError");
      const code: TransportFailure = timedOut ? "TIMEOUT" : "NETWORK";
      error = new IntegrationError({
        system,
        status: null,
        body: null,
        code,
        message: timedOut
          ? `${system}: ${target} gave no answer within ${attemptMs} ms`
          : clean(
              `${system}: ${target} failed (${caught instanceof Error ? caught.message : "network error"})`,
            ),
        attempts: attempt,
      });
    }

    let decision = retryDecision(error, attempt, retries, backoff, retryAfterMs, random);
    if (decision.retry && deadline !== undefined && Date.now() + decision.delayMs >= deadline) {
      decision = { retry: false };
    }
    if (!decision.retry) {
      if (decision.retryAfterMs === undefined) throw error;
      throw new IntegrationError({
        system: error.system,
        status: error.status,
        body: error.body,
        code: error.code,
        message: error.message,
        attempts: error.attempts,
        retryAfterMs: decision.retryAfterMs,
      });
    }
    options.onRetry?.({ attempt, delayMs: decision.delayMs, error });
    await sleep(decision.delayMs);
  }
}

/** A parsed body with every string that contains a secret redacted (a vendor echoing a header back). */
function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redact(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, redactDeep(item, secrets)]),
    );
  }
  return value;
}
