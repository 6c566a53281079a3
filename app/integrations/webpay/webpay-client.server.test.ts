import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebpayClient, isWebpayError, WebpayError, type WebpayClient } from "./webpay-client.server";
import { startWebpayFake, WEBPAY_FAKE_DEFAULTS, type WebpayFakeServer } from "./webpay-fake";
import {
  WEBPAY_FORM_PATH,
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
} from "./webpay-schemas";

// The contract test (ADR 036): Transbank's official SDK (transbank-sdk 6.1.1, axios underneath), wrapped by our
// client, against the fake on 127.0.0.1. The fake is held to the API as the SDK calls it, and the client's reading
// of the SDK's answers and errors (statuses, timeouts, network failures) is checked on the real SDK's output.

const noSleep = async () => undefined;

let server: WebpayFakeServer;
let client: WebpayClient;

beforeAll(async () => {
  server = await startWebpayFake();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.fake.reset();
  client = clientFor();
});

function clientFor(overrides: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return createWebpayClient({
    commerceCode: WEBPAY_INTEGRATION_COMMERCE_CODE,
    apiKey: overrides.apiKey ?? WEBPAY_INTEGRATION_API_KEY,
    baseUrl: overrides.baseUrl ?? server.url,
    timeoutMs: overrides.timeoutMs ?? 3_000,
    sleep: noSleep,
  });
}

let orders = 0;
function order(amount = 25_000) {
  orders += 1;
  return {
    buyOrder: `RC-${Date.now().toString(36)}-${orders}`,
    sessionId: `sesion-${orders}`,
    amount,
    returnUrl: "http://localhost:3000/pagos/retorno",
  };
}

async function rejection(promise: Promise<unknown>): Promise<WebpayError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isWebpayError(error)) throw new Error(`expected a WebpayError, got ${String(error)}`);
  return error as WebpayError;
}

function callsOf(operation: string) {
  return server.fake.state.calls.filter((call) => call.operation === operation);
}

async function paid(amount = 25_000, card?: string) {
  const input = order(amount);
  const { token } = await client.create(input);
  server.fake.pay(token, "approve", card);
  const committed = await client.commit(token);
  return { token, input, committed };
}

describe("a payment through the SDK", () => {
  it("creates, is approved on the form and commits as AUTHORIZED", async () => {
    const input = order(25_000);
    const created = await client.create(input);
    expect(created.token).toMatch(/^[0-9a-f]{64}$/);
    expect(created.url).toBe(`${server.url}${WEBPAY_FORM_PATH}`);

    const back = server.fake.pay(created.token, "approve");
    expect(back).toEqual({
      returnUrl: input.returnUrl,
      method: "POST",
      fields: { token_ws: created.token },
    });

    const committed = await client.commit(created.token);
    expect(committed).toMatchObject({
      status: "AUTHORIZED",
      responseCode: 0,
      amount: 25_000,
      buyOrder: input.buyOrder,
      sessionId: input.sessionId,
      authorizationCode: "1213",
      paymentTypeCode: "VN",
      cardLast4: "6623",
      installmentsNumber: 0,
      vci: "TSY",
      balance: null,
    });
    expect(committed.transactionDate).toBeInstanceOf(Date);
    expect(committed.accountingDate).toMatch(/^\d{4}$/);
    // The SDK sent Transbank's headers and the fake checked them.
    expect(callsOf("create")).toEqual([expect.objectContaining({ method: "POST", status: 200 })]);
    expect(callsOf("commit")).toEqual([expect.objectContaining({ method: "PUT", status: 200 })]);
  });

  it("commits a rejected card as FAILED with Webpay's response code", async () => {
    const { token } = await client.create(order());
    expect(server.fake.pay(token, "reject").fields).toEqual({ token_ws: token });
    const committed = await client.commit(token);
    expect(committed).toMatchObject({ status: "FAILED", responseCode: -1, cardLast4: "0568" });
  });

  it("refuses to commit a payment the payer aborted (422, not retryable)", async () => {
    const input = order();
    const { token } = await client.create(input);
    expect(server.fake.pay(token, "abort").fields).toEqual({
      TBK_TOKEN: token,
      TBK_ORDEN_COMPRA: input.buyOrder,
      TBK_ID_SESION: input.sessionId,
    });
    const error = await rejection(client.commit(token));
    expect(error).toMatchObject({ kind: "rejected", httpStatus: 422, retryable: false, operation: "commit" });
    expect(error.detail).toMatch(/Invalid status '10'/);
    expect((await client.status(token)).status).toBe("INITIALIZED");
  });

  it("sends only the buy order and session back when the form times out, and refuses the commit", async () => {
    const input = order();
    const { token } = await client.create(input);
    server.fake.advanceClock(WEBPAY_FAKE_DEFAULTS.formTimeoutMs + 1);
    // The payer can no longer pay; a token-less return is what the browser gets.
    expect(() => server.fake.pay(token, "approve")).toThrow(/already finished \(timeout\)/);
    const page = await fetch(`${server.url}${WEBPAY_FORM_PATH}?token_ws=${token}`);
    const html = await page.text();
    expect(html).toContain(`name="TBK_ORDEN_COMPRA" value="${input.buyOrder}"`);
    expect(html).toContain(`name="TBK_ID_SESION" value="${input.sessionId}"`);
    expect(html).not.toContain("token_ws");
    expect(html).not.toContain("TBK_TOKEN");
    const error = await rejection(client.commit(token));
    expect(error).toMatchObject({ kind: "rejected", httpStatus: 422 });
    expect(error.detail).toMatch(/invalid finished state: aborted/);
  });

  it("answers a second commit with 422", async () => {
    const { token } = await paid();
    const error = await rejection(client.commit(token));
    expect(error).toMatchObject({ kind: "rejected", httpStatus: 422, retryable: false });
    expect(error.detail).toMatch(/invalid finished state: authorized/);
  });

  it("refuses a commit after the commit window, and the payment is reversed", async () => {
    const { token } = await client.create(order());
    server.fake.pay(token, "approve");
    server.fake.advanceClock(WEBPAY_FAKE_DEFAULTS.commitWindowMs + 1);
    const error = await rejection(client.commit(token));
    expect(error).toMatchObject({ kind: "rejected", httpStatus: 422 });
    expect((await client.status(token)).status).toBe("REVERSED");
  });

  it("reads the status, the same as the commit said", async () => {
    const { token, committed } = await paid(12_345);
    const status = await client.status(token);
    expect(status).toEqual(committed);
    expect(callsOf("status")).toEqual([expect.objectContaining({ method: "GET", status: 200 })]);
  });

  it("answers 404 for an unknown token and 422 after the 7 days of status", async () => {
    const unknown = await rejection(client.status("01ab".padEnd(64, "0")));
    expect(unknown).toMatchObject({ kind: "rejected", httpStatus: 404, retryable: false });
    const { token } = await paid();
    server.fake.advanceClock(WEBPAY_FAKE_DEFAULTS.statusWindowMs + 1);
    expect(await rejection(client.status(token))).toMatchObject({ kind: "rejected", httpStatus: 422 });
  });
});

describe("refunds", () => {
  it("reverses the whole amount soon after the sale", async () => {
    const { token } = await paid(30_000);
    const refund = await client.refund(token, 30_000);
    expect(refund).toEqual({
      type: "REVERSED",
      authorizationCode: null,
      authorizationDate: null,
      nullifiedAmount: null,
      balance: null,
      responseCode: null,
    });
    expect((await client.status(token)).status).toBe("REVERSED");
    expect(await rejection(client.refund(token, 30_000))).toMatchObject({
      kind: "rejected",
      httpStatus: 422,
    });
  });

  it("nullifies part of the amount, keeps the balance, then nullifies the rest", async () => {
    const { token } = await paid(30_000);
    const first = await client.refund(token, 10_000);
    expect(first).toMatchObject({
      type: "NULLIFIED",
      nullifiedAmount: 10_000,
      balance: 20_000,
      responseCode: 0,
    });
    expect(first.authorizationCode).toMatch(/^\d{6}$/);
    expect(first.authorizationDate).toBeInstanceOf(Date);
    expect(await client.status(token)).toMatchObject({ status: "PARTIALLY_NULLIFIED", balance: 20_000 });

    const rest = await client.refund(token, 20_000);
    expect(rest).toMatchObject({ type: "NULLIFIED", nullifiedAmount: 20_000, balance: 0 });
    expect(await client.status(token)).toMatchObject({ status: "NULLIFIED", balance: 0 });
  });

  it("refuses a refund over the balance", async () => {
    const { token } = await paid(30_000);
    await client.refund(token, 25_000);
    const error = await rejection(client.refund(token, 5_001));
    expect(error).toMatchObject({ kind: "rejected", httpStatus: 422, operation: "refund" });
    expect(error.detail).toMatch(/exceeds the available balance/);
    expect(await client.status(token)).toMatchObject({ balance: 5_000 });
  });

  it("nullifies the whole amount once the reversal window has passed", async () => {
    const { token } = await paid(30_000);
    server.fake.advanceClock(WEBPAY_FAKE_DEFAULTS.reversalWindowMs + 1);
    expect(await client.refund(token, 30_000)).toMatchObject({ type: "NULLIFIED", balance: 0 });
  });

  it("only reverses a debit payment: a late or partial refund is refused", async () => {
    const { token } = await paid(30_000, "4051884239937763");
    const error = await rejection(client.refund(token, 1_000));
    expect(error.detail).toMatch(/only allow reverses/);
  });
});

describe("failures", () => {
  it("reports a wrong API key as auth (401), not retryable", async () => {
    const error = await rejection(clientFor({ apiKey: "not-the-key-0123456789" }).create(order()));
    expect(error).toMatchObject({ kind: "auth", httpStatus: 401, retryable: false, operation: "create" });
    // Neither the key sent nor the real one appears in the error.
    expect(JSON.stringify({ message: error.message, detail: error.detail })).not.toMatch(
      /not-the-key|579B532A/,
    );
  });

  it("reports a 500 as unavailable and retryable, and does not retry a create", async () => {
    server.fake.fail({ operation: "create", status: 500, times: 3 });
    const error = await rejection(client.create(order()));
    expect(error).toMatchObject({ kind: "unavailable", httpStatus: 500, retryable: true });
    expect(callsOf("create")).toHaveLength(1);
  });

  it("retries a status read twice, then gives up", async () => {
    const { token } = await paid();
    server.fake.fail({ operation: "status", status: 503, times: 2 });
    expect((await client.status(token)).status).toBe("AUTHORIZED");
    expect(callsOf("status").map((call) => call.status)).toEqual([503, 503, 200]);

    server.fake.fail({ operation: "status", status: 502, times: 3 });
    expect(await rejection(client.status(token))).toMatchObject({ kind: "unavailable", httpStatus: 502 });
    expect(callsOf("status")).toHaveLength(6);
  });

  it("times out a slow answer, and does not retry a commit", async () => {
    const { token } = await client.create(order());
    server.fake.pay(token, "approve");
    server.fake.fail({ operation: "commit", delayMs: 2_000 });
    const started = Date.now();
    const error = await rejection(clientFor({ timeoutMs: 150 }).commit(token));
    expect(error).toMatchObject({ kind: "timeout", httpStatus: null, retryable: true, operation: "commit" });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(callsOf("commit")).toHaveLength(1);
  });

  it("reports a refused connection as unavailable", async () => {
    const closed = await startWebpayFake();
    const url = closed.url;
    await closed.close();
    const error = await rejection(clientFor({ baseUrl: url }).create(order()));
    expect(error).toMatchObject({ kind: "unavailable", httpStatus: null, retryable: true });
  });

  it("refuses an answer whose amount is not whole pesos", async () => {
    const { token } = await paid(1_000);
    const real = await (
      await fetch(`${server.url}/rswebpaytransaction/api/webpay/v1.2/transactions/${token}`, {
        headers: {
          "Tbk-Api-Key-Id": WEBPAY_INTEGRATION_COMMERCE_CODE,
          "Tbk-Api-Key-Secret": WEBPAY_INTEGRATION_API_KEY,
        },
      })
    ).json();
    server.fake.fail({ operation: "status", status: 200, body: { ...real, amount: 1000.5 } });
    const before = callsOf("status").length;
    const error = await rejection(client.status(token));
    expect(error).toMatchObject({ kind: "invalid_response", retryable: false, operation: "status" });
    expect(error.detail).toMatch(/amount/);
    // Not retried: the same answer would come again.
    expect(callsOf("status")).toHaveLength(before + 1);
  });

  it("fails fast once Transbank has failed five times in a row (ADR 017's breaker)", async () => {
    server.fake.fail({ operation: "create", status: 503, times: 5 });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await rejection(client.create(order()))).toMatchObject({ httpStatus: 503 });
    }
    const error = await rejection(client.create(order()));
    expect(error).toMatchObject({
      kind: "unavailable",
      httpStatus: null,
      retryable: true,
      detail: "circuit open",
    });
    expect(callsOf("create")).toHaveLength(5);
    // Money-moving calls are not held back by it.
    expect(await rejection(client.commit("01ab".padEnd(64, "1")))).toMatchObject({ httpStatus: 404 });
  });
});

describe("input refused before any request", () => {
  it("checks the buy order, session, amount, return URL and token", async () => {
    const base = order();
    const cases: Array<[string, Promise<unknown>]> = [
      ["buy order of 27", client.create({ ...base, buyOrder: "A".repeat(27) })],
      ["buy order with a space", client.create({ ...base, buyOrder: "RC 1" })],
      ["session of 62", client.create({ ...base, sessionId: "s".repeat(62) })],
      ["amount with decimals", client.create({ ...base, amount: 1000.5 })],
      ["amount zero", client.create({ ...base, amount: 0 })],
      ["return URL not http", client.create({ ...base, returnUrl: "javascript:alert(1)" })],
      ["token with a path", client.commit("../../transactions")],
      ["token too long", client.status("a".repeat(65))],
      ["refund of decimals", client.refund("01ab".padEnd(64, "2"), 10.5)],
    ];
    for (const [name, promise] of cases) {
      const error = await rejection(promise);
      expect({ name, kind: error.kind, httpStatus: error.httpStatus, retryable: error.retryable }).toEqual({
        name,
        kind: "rejected",
        httpStatus: null,
        retryable: false,
      });
    }
    expect(server.fake.state.calls).toEqual([]);
  });
});
