import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  IntegrationError,
  backoffDelay,
  excerpt,
  isRetryableError,
  isRetryableStatus,
  parseRetryAfter,
  redact,
  requestJson,
  retryDecision,
  secretsOf,
  worstCaseDurationMs,
} from "./http.server";

function integrationError(status: number | null, code?: string) {
  return new IntegrationError({ system: "test", status, body: null, code, message: "failed" });
}

const noJitter = () => 0;

describe("retry decisions", () => {
  it("retries 429 and 5xx, never other statuses", () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 409, 422].some(isRetryableStatus)).toBe(false);
  });

  it("treats a missing answer (timeout, network) as retryable", () => {
    expect(integrationError(null, "TIMEOUT").retryable).toBe(true);
    expect(integrationError(null, "NETWORK").retryable).toBe(true);
    expect(integrationError(401, "UNAUTHORIZED").retryable).toBe(false);
    expect(integrationError(200, "INVALID_RESPONSE").retryable).toBe(false);
    expect(isRetryableError(integrationError(503))).toBe(true);
    expect(isRetryableError(new Error("bug"))).toBe(false);
  });

  it("stops after the bound and on non-retryable errors", () => {
    expect(retryDecision(integrationError(500), 1, 2, {}, undefined, noJitter)).toEqual({
      retry: true,
      delayMs: 125,
    });
    expect(retryDecision(integrationError(500), 2, 2, {}, undefined, noJitter)).toEqual({
      retry: true,
      delayMs: 250,
    });
    expect(retryDecision(integrationError(500), 3, 2, {}, undefined, noJitter)).toEqual({ retry: false });
    expect(retryDecision(integrationError(400), 1, 2, {}, 5_000, noJitter)).toEqual({ retry: false });
    expect(retryDecision(integrationError(500), 1, 0)).toEqual({ retry: false });
  });

  it("waits a Retry-After up to the cap and hands a longer one back to the caller", () => {
    const options = { baseMs: 100, retryAfterCapMs: 2_000 };
    expect(retryDecision(integrationError(429), 1, 2, options, 1_500, () => 0)).toEqual({
      retry: true,
      delayMs: 1_500,
    });
    // A Retry-After shorter than the backoff does not shorten it.
    expect(retryDecision(integrationError(429), 1, 2, options, 10, () => 1)).toEqual({
      retry: true,
      delayMs: 100,
    });
    expect(retryDecision(integrationError(429), 1, 2, options, 60_000)).toEqual({
      retry: false,
      retryAfterMs: 60_000,
    });
    // Out of attempts: the Retry-After still tells the caller when to come back.
    expect(retryDecision(integrationError(429), 3, 2, options, 1_000)).toEqual({
      retry: false,
      retryAfterMs: 1_000,
    });
  });
});

describe("backoff", () => {
  it("doubles per retry with jitter between half and the whole delay, up to the maximum", () => {
    const options = { baseMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, options, () => 1))).toEqual([
      100, 200, 400, 800, 1_000,
    ]);
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, options, () => 0))).toEqual([
      50, 100, 200, 400, 500,
    ]);
    for (let i = 0; i < 100; i += 1) {
      const delay = backoffDelay(3, options);
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-03-01T12:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 01 Mar 2026 12:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-1", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("bounds the worst case of a call", () => {
    expect(worstCaseDurationMs(1_000, 0)).toBe(1_000);
    expect(worstCaseDurationMs(1_000, 2, { baseMs: 100, maxMs: 1_000, retryAfterCapMs: 500 })).toBe(
      3_000 + 500 + 500,
    );
  });
});

describe("secrets and excerpts", () => {
  it("finds the credentials in headers and keeps them out of text", () => {
    const secrets = secretsOf({ Authorization: "App k3y-abc", "X-Api-Key": "other-key", Accept: "json" });
    expect(secrets).toContain("App k3y-abc");
    expect(secrets).toContain("k3y-abc");
    expect(secrets).toContain("other-key");
    expect(secrets).not.toContain("json");
    expect(redact("denied for k3y-abc and other-key", secrets)).toBe("denied for [redacted] and [redacted]");
    expect(redact("abc", ["ab"])).toBe("abc");
  });

  it("cuts long bodies and flattens whitespace", () => {
    expect(excerpt("a\n  b")).toBe("a b");
    expect(excerpt("x".repeat(400))).toHaveLength(301);
  });
});

/** A fetch that answers from a list, one answer per call, and records the calls. */
function scripted(answers: Array<Response | Error | "hang">) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string | URL | Request, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    if (next === "hang") {
      return new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    }
    if (next instanceof Error) throw next;
    return next;
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const okSchema = z.object({ ok: z.literal(true) });

function run(
  answers: Array<Response | Error | "hang">,
  extra: { retries?: number; timeoutMs?: number; deadline?: number } = {},
) {
  const { fetch, calls } = scripted(answers);
  const sleeps: number[] = [];
  const promise = requestJson({
    system: "test",
    url: "https://vendor.example/api/thing?ignored=1",
    method: "POST",
    headers: { Authorization: "App secret-key-123" },
    body: { a: 1 },
    timeoutMs: extra.timeoutMs ?? 1_000,
    deadline: extra.deadline,
    retries: extra.retries ?? 2,
    backoff: { baseMs: 10 },
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 1,
    schema: okSchema,
    errorCode: (body) => (body as { code?: string } | null)?.code,
  });
  return { promise, calls, sleeps };
}

async function failure(promise: Promise<unknown>): Promise<IntegrationError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(IntegrationError);
  return caught as IntegrationError;
}

describe("requestJson", () => {
  it("sends JSON with the headers and returns the parsed body", async () => {
    const { promise, calls } = run([json(200, { ok: true, extra: "dropped" })]);
    await expect(promise).resolves.toEqual({ ok: true });
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get("authorization")).toBe("App secret-key-123");
    expect(headers.get("content-type")).toBe("application/json");
    expect(calls[0]?.init.body).toBe('{"a":1}');
  });

  it("retries 5xx with growing delays, then gives up with the last error", async () => {
    const { promise, calls, sleeps } = run([
      json(500, { code: "E1" }),
      json(502, { code: "E2" }),
      json(503, { code: "E3" }),
    ]);
    const error = await failure(promise);
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([10, 20]);
    expect(error).toMatchObject({
      system: "test",
      status: 503,
      code: "E3",
      attempts: 3,
      body: { code: "E3" },
    });
  });

  it("retries a 429, honouring its Retry-After, and then succeeds", async () => {
    const { promise, sleeps } = run([
      json(429, { code: "TOO_MANY_REQUESTS" }, { "retry-after": "1" }),
      json(200, { ok: true }),
    ]);
    await expect(promise).resolves.toEqual({ ok: true });
    expect(sleeps).toEqual([1_000]);
  });

  it("does not retry other 4xx", async () => {
    const { promise, calls } = run([json(400, { code: "BAD_REQUEST" }), json(200, { ok: true })]);
    const error = await failure(promise);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 400, code: "BAD_REQUEST", retryable: false });
  });

  it("turns timeouts and network failures into retryable errors without a status", async () => {
    const timedOut = run(["hang", "hang"], { retries: 1, timeoutMs: 20 });
    expect(await failure(timedOut.promise)).toMatchObject({ status: null, code: "TIMEOUT", attempts: 2 });
    const refused = run([new TypeError("fetch failed")], { retries: 0 });
    expect(await failure(refused.promise)).toMatchObject({ status: null, code: "NETWORK", retryable: true });
  });

  it("reports an answer in the wrong shape as an error with an excerpt, not a crash", async () => {
    const wrong = await failure(run([json(200, { ok: "yes" })]).promise);
    expect(wrong).toMatchObject({
      status: 200,
      code: "INVALID_RESPONSE",
      retryable: false,
      body: '{"ok":"yes"}',
    });
    expect(wrong.message).toContain("ok:");
    const html = await failure(run([new Response("<html>gateway</html>", { status: 200 })]).promise);
    expect(html).toMatchObject({ status: 200, code: "INVALID_RESPONSE", body: "<html>gateway</html>" });
  });

  it("keeps the key out of messages and bodies even when the vendor echoes it", async () => {
    const echoed = await failure(
      run([json(401, { code: "UNAUTHORIZED", text: "bad key secret-key-123" })], { retries: 0 }).promise,
    );
    expect(JSON.stringify(echoed.body)).not.toContain("secret-key-123");
    expect(echoed.message).not.toContain("secret-key-123");
    expect(echoed.message).not.toContain("ignored=1");
    const text = await failure(run([new Response("no App secret-key-123 here", { status: 403 })]).promise);
    expect(text.body).toBe("no [redacted] here");
  });

  it("reports a redirect instead of following it", async () => {
    const { promise, calls } = run([
      new Response(null, { status: 302, headers: { location: "https://elsewhere" } }),
    ]);
    expect(await failure(promise)).toMatchObject({ status: 302, retryable: false });
    expect(calls[0]?.init.redirect).toBe("manual");
  });

  it("hands a Retry-After beyond the cap back to the caller instead of waiting", async () => {
    const { promise, calls } = run([json(429, { code: "TOO_MANY_REQUESTS" }, { "retry-after": "3600" })]);
    const error = await failure(promise);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3_600_000 });
  });

  it("cuts each attempt to what is left of a deadline and makes no retry past it", async () => {
    const started = Date.now();
    const hung = run(["hang", json(200, { ok: true })], { timeoutMs: 10_000, deadline: started + 50 });
    const error = await failure(hung.promise);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ status: null, code: "TIMEOUT", attempts: 1 });
    expect(hung.calls).toHaveLength(1);
    // A retry whose backoff would end after the deadline is not waited for.
    const slow = run([json(503, {}), json(200, { ok: true })], { deadline: Date.now() + 5 });
    expect(await failure(slow.promise)).toMatchObject({ status: 503, attempts: 1 });
    expect(slow.sleeps).toEqual([]);
  });

  it("sends nothing once the deadline has passed", async () => {
    const late = run([json(200, { ok: true })], { deadline: Date.now() - 1 });
    expect(await failure(late.promise)).toMatchObject({ code: "TIMEOUT", attempts: 0 });
    expect(late.calls).toHaveLength(0);
  });
});
