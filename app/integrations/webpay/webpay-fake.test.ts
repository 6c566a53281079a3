import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createWebpayFake, reviveTransaction, startWebpayFake, type WebpayFakeServer } from "./webpay-fake";
import {
  WEBPAY_API_PATH,
  WEBPAY_DEMO_PATH,
  WEBPAY_FORM_PATH,
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
} from "./webpay-schemas";

// The fake's own contract beyond what the SDK exercises (webpay-client.server.test.ts): the raw API's refusals,
// the payment form a browser sees, the way back to return_url, the /__fake hooks, and the demo mount.

const KEYS = {
  "Tbk-Api-Key-Id": WEBPAY_INTEGRATION_COMMERCE_CODE,
  "Tbk-Api-Key-Secret": WEBPAY_INTEGRATION_API_KEY,
};
const RETURN_URL = "http://localhost:3000/pagos/retorno";

let server: WebpayFakeServer;

beforeAll(async () => {
  server = await startWebpayFake({ commerceName: "Río Clínica" });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => server.fake.reset());

function api(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${server.url}${WEBPAY_API_PATH}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...KEYS, ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function create(fields: Record<string, unknown> = {}) {
  const response = await api("/transactions", {
    method: "POST",
    body: { buy_order: "RC-1", session_id: "s-1", amount: 25_000, return_url: RETURN_URL, ...fields },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function form(path: string, fields: Record<string, string>) {
  return fetch(`${server.url}${path}`, { method: "POST", body: new URLSearchParams(fields) });
}

describe("the API", () => {
  it("answers 401 with Transbank's error body without the right headers", async () => {
    const wrong: Array<Record<string, string>> = [
      { "Tbk-Api-Key-Secret": "wrong" },
      { "Tbk-Api-Key-Id": "597000000000" },
    ];
    for (const headers of wrong) {
      const response = await api("/transactions", { method: "POST", body: {}, headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error_message: expect.any(String) });
    }
  });

  it("validates a creation with 422 and {error_message}", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ buy_order: "A".repeat(27) }, /buy_order/],
      [{ buy_order: "con espacio" }, /buy_order/],
      [{ session_id: "s".repeat(62) }, /session_id/],
      [{ amount: 1000.5 }, /amount/],
      [{ amount: -5 }, /amount/],
      [{ amount: "1000" }, /amount/],
      [{ return_url: "ftp://x" }, /return_url/],
      [{ return_url: undefined }, /return_url is required/],
    ];
    for (const [fields, message] of cases) {
      const answer = await create(fields);
      expect({ fields, status: answer.status }).toEqual({ fields, status: 422 });
      expect(answer.body.error_message).toMatch(message);
    }
    expect(server.fake.state.transactions).toEqual([]);
  });

  it("accepts the longest buy order and session id, and answers a token and the form's URL", async () => {
    const answer = await create({ buy_order: "O|_=&%.,~:/?[+!@()>-123456", session_id: "s".repeat(61) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      token: expect.stringMatching(/^01ab[0-9a-f]{60}$/),
      url: `${server.url}${WEBPAY_FORM_PATH}`,
    });
  });

  it("answers 400 for a body that is not JSON and 415 for another content type", async () => {
    const notJson = await fetch(`${server.url}${WEBPAY_API_PATH}/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...KEYS },
      body: "{nope",
    });
    expect(notJson.status).toBe(400);
    const text = await fetch(`${server.url}${WEBPAY_API_PATH}/transactions`, {
      method: "POST",
      headers: { "content-type": "text/plain", ...KEYS },
      body: "x",
    });
    expect(text.status).toBe(415);
  });
});

async function opened() {
  const { body } = await create();
  const token = String(body.token);
  const page = await form(WEBPAY_FORM_PATH, { token_ws: token });
  return { token, page, html: await page.text() };
}

describe("the payment form", () => {
  it("shows the commerce, the amount in pesos and a labelled card field, never cached, under a CSP", async () => {
    const { token, page, html } = await opened();
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'.*script-src 'nonce-/);
    expect(html).toContain('<html lang="es-CL">');
    expect(html).toContain("Río Clínica");
    expect(html).toMatch(/\$25\.000/);
    expect(html).toContain('<label for="numero-tarjeta">Número de tarjeta</label>');
    expect(html).toContain('id="numero-tarjeta"');
    expect(html).toContain(`name="token_ws" value="${token}"`);
    expect(html).toMatch(/<button[^>]*value="pay"[^>]*>Pagar<\/button>/);
    expect(html).toMatch(/<button[^>]*value="abort"[^>]*>Anular compra y volver<\/button>/);
    // The same page by GET, as the docs also allow.
    const byGet = await fetch(`${server.url}${WEBPAY_FORM_PATH}?token_ws=${token}`);
    expect(byGet.status).toBe(200);
  });

  it("approves with the VISA test card and sends token_ws back by an auto-submitting POST form", async () => {
    const { token } = await opened();
    const back = await form("/webpayserver/pagar", {
      token_ws: token,
      card_number: "4051 8856 0044 6623",
      action: "pay",
    });
    const html = await back.text();
    expect(back.status).toBe(200);
    expect(html).toContain(`<form id="volver" method="post" action="${RETURN_URL}">`);
    expect(html).toContain(`<input type="hidden" name="token_ws" value="${token}">`);
    expect(html).toMatch(/<button type="submit"[^>]*>Volver al comercio<\/button>/);
    expect(html).toContain('document.getElementById("volver").submit()');
    expect(back.headers.get("content-security-policy")).toContain("form-action 'self' http://localhost:3000");
    expect(server.fake.find(token)).toMatchObject({
      payer: "approved",
      status: "INITIALIZED",
      cardLast4: "6623",
    });
  });

  it("rejects with the Mastercard test card (still token_ws), and aborts with the TBK_ fields", async () => {
    const rejected = await opened();
    const back = await (
      await form("/webpayserver/pagar", {
        token_ws: rejected.token,
        card_number: "5186059559590568",
        action: "pay",
      })
    ).text();
    expect(back).toContain(`name="token_ws" value="${rejected.token}"`);
    expect(server.fake.find(rejected.token)?.payer).toBe("rejected");

    const aborted = await opened();
    const abortPage = await (
      await form("/webpayserver/pagar", { token_ws: aborted.token, action: "abort" })
    ).text();
    expect(abortPage).toContain(`name="TBK_TOKEN" value="${aborted.token}"`);
    expect(abortPage).toContain('name="TBK_ORDEN_COMPRA" value="RC-1"');
    expect(abortPage).toContain('name="TBK_ID_SESION" value="s-1"');
    expect(abortPage).not.toContain("token_ws");
  });

  it("asks again for an unknown card, and refuses a token already used", async () => {
    const { token } = await opened();
    const again = await form("/webpayserver/pagar", {
      token_ws: token,
      card_number: "4111111111111111",
      action: "pay",
    });
    expect(again.status).toBe(422);
    const html = await again.text();
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('id="error-tarjeta"');
    server.fake.pay(token, "approve");
    const used = await form(WEBPAY_FORM_PATH, { token_ws: token });
    expect(used.status).toBe(409);
    expect(await form(WEBPAY_FORM_PATH, { token_ws: "desconocido" }).then((r) => r.status)).toBe(404);
  });

  it("escapes what the commerce sent", async () => {
    const { body } = await create({ return_url: 'http://localhost:3000/r?a="><script>x</script>' });
    const token = String(body.token);
    const html = await (await form("/webpayserver/pagar", { token_ws: token, action: "abort" })).text();
    expect(html).not.toContain("<script>x</script>");
    expect(html).toContain("&lt;script&gt;");
  });
});

async function control(path: string, body?: unknown) {
  const response = await fetch(`${server.url}/__fake/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the /__fake hooks over HTTP", () => {
  it("pays, injects failures, moves the clock, shows and resets the state", async () => {
    const token = String((await create()).body.token);
    expect(await control("pay", { token, outcome: "timeout" })).toEqual({
      status: 200,
      body: {
        returnUrl: RETURN_URL,
        method: "POST",
        fields: { TBK_ORDEN_COMPRA: "RC-1", TBK_ID_SESION: "s-1" },
      },
    });
    expect((await control("pay", { token, outcome: "approve" })).status).toBe(409);
    expect((await control("pay", { token: "nope", outcome: "approve" })).status).toBe(404);
    expect((await control("pay", { token, outcome: "maybe" })).status).toBe(400);

    expect((await control("fail", { operation: "create", status: 503 })).status).toBe(200);
    expect((await create()).status).toBe(503);
    expect((await create()).status).toBe(200);
    expect((await control("fail", { operation: "nope", status: 500 })).status).toBe(400);

    const clock = await control("clock", { advanceMs: 60_000 });
    expect(clock.body.offsetMs).toBe(60_000);

    const state = await control("state");
    expect(state.body).toMatchObject({ clockOffsetMs: 60_000, failures: [] });
    expect(state.body.transactions).toHaveLength(2);
    expect((await control("reset", {})).body).toEqual({ ok: true });
    expect((await control("state")).body).toMatchObject({ transactions: [], calls: [], clockOffsetMs: 0 });
  });
});

describe("injected delays around a commit (what the payments crash test relies on)", () => {
  it("delayAfterApplyMs (scoped to a token): the commit is applied at once, its answer comes after the delay", async () => {
    const token = String((await create()).body.token);
    const other = String((await create({ buy_order: "RC-2" })).body.token);
    server.fake.pay(token, "approve");
    server.fake.pay(other, "approve");
    expect((await control("fail", { operation: "commit", token, delayAfterApplyMs: 400 })).status).toBe(200);
    // Scoped to its token: another transaction's commit is answered at once and leaves it waiting.
    expect((await api(`/transactions/${other}`, { method: "PUT", body: {} })).status).toBe(200);
    expect(server.fake.state.failures).toHaveLength(1);
    let answered = false;
    const commit = api(`/transactions/${token}`, { method: "PUT", body: {} }).then((response) => {
      answered = true;
      return response;
    });
    await vi.waitFor(() => expect(server.fake.find(token)?.status).toBe("AUTHORIZED"));
    expect(answered).toBe(false);
    const response = await commit;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "AUTHORIZED", response_code: 0 });
    expect((await control("fail", { operation: "commit" })).status).toBe(400);
  });

  it("delayMs: a commit whose caller went away during the delay is still applied, as Webpay would", async () => {
    const token = String((await create()).body.token);
    server.fake.pay(token, "approve");
    server.fake.fail({ operation: "commit", delayMs: 300 });
    const request = http.request(`${server.url}${WEBPAY_API_PATH}/transactions/${token}`, {
      method: "PUT",
      headers: { "content-type": "application/json", ...KEYS },
    });
    request.on("error", () => {});
    request.end("{}");
    await vi.waitFor(() => expect(server.fake.state.calls.at(-1)?.operation).toBe("commit"));
    request.destroy();
    expect(server.fake.find(token)?.status).toBe("INITIALIZED");
    await vi.waitFor(() => expect(server.fake.find(token)?.status).toBe("AUTHORIZED"));
  });
});

describe("the demo mount", () => {
  const publicUrl = `https://demo.clinica.example${WEBPAY_DEMO_PATH}`;
  const fake = createWebpayFake({ basePath: WEBPAY_DEMO_PATH, publicUrl, controlRoutes: false });

  it("serves the API and the form under its base path, with URLs on the public address", async () => {
    const response = await fake.handle(
      new Request(`http://127.0.0.1:3000${WEBPAY_DEMO_PATH}${WEBPAY_API_PATH}/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...KEYS },
        body: JSON.stringify({ buy_order: "D-1", session_id: "d", amount: 9_990, return_url: RETURN_URL }),
      }),
    );
    const created = (await response.json()) as { token: string; url: string };
    expect(created.url).toBe(`${publicUrl}${WEBPAY_FORM_PATH}`);
    const page = await fake.handle(new Request(`${created.url}?token_ws=${created.token}`));
    const html = await page.text();
    expect(html).toContain(`action="${publicUrl}/webpayserver/pagar"`);
    expect(page.headers.get("content-security-policy")).toContain(
      "form-action 'self' https://demo.clinica.example",
    );
  });

  it("has no test hooks and nothing outside its base path", async () => {
    expect((await fake.handle(new Request(`http://x${WEBPAY_DEMO_PATH}/__fake/state`))).status).toBe(404);
    expect((await fake.handle(new Request(`http://x/otra${WEBPAY_API_PATH}/transactions`))).status).toBe(404);
  });
});

describe("saved state", () => {
  it("comes back with its dates", () => {
    const fake = createWebpayFake();
    const created = new Date("2026-01-02T03:04:05.000Z");
    const saved = JSON.parse(
      JSON.stringify([
        {
          ...fakeTransaction(),
          createdAt: created,
          refunds: [{ type: "NULLIFIED", amount: 5, at: created }],
        },
      ]),
    ) as Array<Record<string, unknown>>;
    const revived = saved.map(reviveTransaction);
    expect(revived[0]?.createdAt).toEqual(created);
    expect(revived[0]?.refunds[0]?.at).toEqual(created);
    expect(revived[0]?.committedAt).toBeNull();
    expect(fake.state.transactions).toEqual([]);
  });
});

function fakeTransaction() {
  return {
    token: "01ab".padEnd(64, "0"),
    buyOrder: "X",
    sessionId: "Y",
    amount: 10,
    returnUrl: RETURN_URL,
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
  };
}
