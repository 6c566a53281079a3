import { Environment, IntegrationApiKeys, IntegrationCommerceCodes } from "transbank-sdk";
import { describe, expect, it } from "vitest";
import { createWebpayClient, webpayClientConfig, webpayEnvironmentUrl } from "./webpay-client.server";
import {
  classifySdkErrorMessage,
  kindOfStatus,
  lastFourDigits,
  toWebpayRefund,
  toWebpayTransaction,
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
  webpayCreateResponseSchema,
  webpayRefundResponseSchema,
  webpayTransactionResponseSchema,
} from "./webpay-schemas";

const committed = {
  vci: "TSY",
  amount: 10000,
  status: "AUTHORIZED",
  buy_order: "ordenCompra12345678",
  session_id: "sesion1234557545",
  card_detail: { card_number: "6623" },
  accounting_date: "0522",
  transaction_date: "2019-05-22T16:41:21.063Z",
  authorization_code: "1213",
  payment_type_code: "VN",
  response_code: 0,
  installments_number: 0,
};

describe("constants", () => {
  it("are the SDK's integration commerce and key", () => {
    expect(WEBPAY_INTEGRATION_COMMERCE_CODE).toBe(IntegrationCommerceCodes.WEBPAY_PLUS);
    expect(WEBPAY_INTEGRATION_API_KEY).toBe(IntegrationApiKeys.WEBPAY);
  });
});

describe("transaction answers", () => {
  it("reads the commit example of Transbank's reference", () => {
    const parsed = webpayTransactionResponseSchema.parse(committed);
    expect(toWebpayTransaction(parsed)).toEqual({
      status: "AUTHORIZED",
      responseCode: 0,
      amount: 10000,
      buyOrder: "ordenCompra12345678",
      sessionId: "sesion1234557545",
      authorizationCode: "1213",
      paymentTypeCode: "VN",
      cardLast4: "6623",
      installmentsNumber: 0,
      transactionDate: new Date("2019-05-22T16:41:21.063Z"),
      accountingDate: "0522",
      vci: "TSY",
      balance: null,
    });
  });

  it("reads an INITIALIZED status with most fields absent or null", () => {
    const parsed = webpayTransactionResponseSchema.parse({
      amount: 5000,
      status: "INITIALIZED",
      buy_order: "b",
      session_id: "s",
      vci: null,
      card_detail: null,
      response_code: null,
    });
    expect(toWebpayTransaction(parsed)).toMatchObject({
      status: "INITIALIZED",
      responseCode: null,
      cardLast4: null,
      transactionDate: null,
      vci: null,
    });
  });

  it("refuses decimals, an unknown status, a bad date and a missing buy order", () => {
    for (const broken of [
      { ...committed, amount: 10000.5 },
      { ...committed, amount: "10000" },
      { ...committed, status: "PAID" },
      { ...committed, transaction_date: "ayer" },
      { ...committed, buy_order: undefined },
      { ...committed, balance: 1.5 },
    ]) {
      expect({ broken, parsed: webpayTransactionResponseSchema.safeParse(broken).success }).toEqual({
        broken,
        parsed: false,
      });
    }
  });

  it("keeps only the last four digits of a full card number", () => {
    expect(lastFourDigits("4051885600446623")).toBe("6623");
    expect(lastFourDigits("XXXX-XXXX-XXXX-6623")).toBe("6623");
    expect(lastFourDigits("12")).toBeNull();
    expect(lastFourDigits(undefined)).toBeNull();
  });
});

describe("refund and create answers", () => {
  it("reads a nullification (1000.00 is whole pesos) and a bare reversal", () => {
    const nullified = webpayRefundResponseSchema.parse(
      JSON.parse(
        '{"type":"NULLIFIED","authorization_code":"123456","authorization_date":"2019-03-20T20:18:20Z","nullified_amount":1000.00,"balance":0.00,"response_code":0,"prepaid_balance":0}',
      ),
    );
    expect(toWebpayRefund(nullified)).toEqual({
      type: "NULLIFIED",
      authorizationCode: "123456",
      authorizationDate: new Date("2019-03-20T20:18:20Z"),
      nullifiedAmount: 1000,
      balance: 0,
      responseCode: 0,
    });
    expect(toWebpayRefund(webpayRefundResponseSchema.parse({ type: "REVERSED" }))).toMatchObject({
      type: "REVERSED",
      responseCode: null,
    });
    expect(webpayRefundResponseSchema.safeParse({ type: "NULLIFIED", nullified_amount: 99.9 }).success).toBe(
      false,
    );
  });

  it("checks a creation's token and URL", () => {
    const token = "e9d555262db0f989e49d724b4db0b0af367cc415cde41f500a776550fc5fddd3";
    const url = "https://webpay3gint.transbank.cl/webpayserver/initTransaction";
    expect(webpayCreateResponseSchema.parse({ token, url })).toEqual({ token, url });
    expect(webpayCreateResponseSchema.safeParse({ token: "../x", url }).success).toBe(false);
    expect(webpayCreateResponseSchema.safeParse({ token, url: "javascript:alert(1)" }).success).toBe(false);
  });
});

describe("reading the SDK's errors", () => {
  it("takes the HTTP status and Transbank's message from a TransbankError message", () => {
    expect(
      classifySdkErrorMessage(
        "AxiosError: Request failed with status code 422\nTransaction has an invalid finished state: aborted\n",
      ),
    ).toEqual({
      kind: "rejected",
      httpStatus: 422,
      detail: "Transaction has an invalid finished state: aborted",
    });
    // Older axios named the error plain "Error" (seen in transbank-sdk-nodejs issue #94).
    expect(
      classifySdkErrorMessage("Error: Request failed with status code 401\nNot Authorized\n"),
    ).toMatchObject({
      kind: "auth",
      httpStatus: 401,
    });
    expect(
      classifySdkErrorMessage("AxiosError: Request failed with status code 503\nUnexpected error\n"),
    ).toMatchObject({ kind: "unavailable", httpStatus: 503 });
  });

  it("tells a timeout from a network failure", () => {
    expect(
      classifySdkErrorMessage("AxiosError: timeout of 150ms exceeded\nUnexpected error\n"),
    ).toMatchObject({
      kind: "timeout",
      httpStatus: null,
    });
    expect(
      classifySdkErrorMessage("AxiosError: connect ECONNREFUSED 127.0.0.1:9\nUnexpected error\n"),
    ).toMatchObject({
      kind: "unavailable",
      httpStatus: null,
      detail: "AxiosError: connect ECONNREFUSED 127.0.0.1:9",
    });
  });

  it("sorts statuses into kinds", () => {
    expect([400, 401, 403, 404, 408, 415, 422, 429, 500, 502, 503, 302].map(kindOfStatus)).toEqual([
      "rejected",
      "auth",
      "auth",
      "rejected",
      "unavailable",
      "rejected",
      "rejected",
      "unavailable",
      "unavailable",
      "unavailable",
      "unavailable",
      "invalid_response",
    ]);
  });
});

describe("configuration", () => {
  it("names Transbank's hosts and takes any other value as a URL", () => {
    expect(webpayEnvironmentUrl("production")).toBe(Environment.Production);
    expect(webpayEnvironmentUrl("integration")).toBe(Environment.Integration);
    expect(webpayEnvironmentUrl("http://127.0.0.1:3296/")).toBe("http://127.0.0.1:3296");
  });

  it("builds the live, demo and off configurations", () => {
    const common = { timeoutMs: 10_000, publicBaseUrl: "http://localhost:3000/" };
    expect(webpayClientConfig({ ...common, mode: "off" })).toBeNull();
    expect(webpayClientConfig({ ...common, mode: "demo" })).toEqual({
      commerceCode: "597055555532",
      apiKey: WEBPAY_INTEGRATION_API_KEY,
      baseUrl: "http://localhost:3000/webpay-demo",
      timeoutMs: 10_000,
    });
    expect(
      webpayClientConfig({
        ...common,
        mode: "live",
        commerceCode: "597012345678",
        apiKey: "secret-key",
        environment: "production",
      }),
    ).toEqual({
      commerceCode: "597012345678",
      apiKey: "secret-key",
      baseUrl: "https://webpay3g.transbank.cl",
      timeoutMs: 10_000,
    });
    expect(() => webpayClientConfig({ ...common, mode: "live" })).toThrow(/commerce code/);
  });

  it("refuses a client without a 12-digit commerce code or a key", () => {
    const config = { commerceCode: "597055555532", apiKey: "k", baseUrl: "http://x", timeoutMs: 100 };
    expect(() => createWebpayClient({ ...config, commerceCode: "5970" })).toThrow(/12 digits/);
    expect(() => createWebpayClient({ ...config, apiKey: "" })).toThrow(/API key/);
  });
});
