import { describe, expect, it } from "vitest";
import { IntegrationError } from "../http.server";
import { DentalinkInputError, createDentalinkClient, isDentalinkMockKey } from "./dentalink-client.server";
import { NO_MOCK_DELAYS } from "./dentalink-mock";
import { DENTALINK_DEFAULT_BASE_URL } from "./dentalink-schemas";

const BASE = "https://dentalink.test/api/v1";
const KEY = "live-key-0123";

/** A fetch that answers each request with `answer(url)` and records the requests. */
function recording(answer: (url: URL, init: RequestInit) => unknown) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    calls.push({ url: url.toString(), init });
    return Response.json(answer(url, init));
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

function clock() {
  let time = 0;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const noSleep = async () => undefined;

describe("mode", () => {
  it("is mock without a key or with a placeholder", () => {
    for (const key of [
      undefined,
      "",
      "  ",
      "your-dentalink-api-key",
      "{key}",
      "<DENTALINK_API_KEY>",
      "changeme",
      "YOUR_API_KEY",
      "tu-api-key",
    ]) {
      expect(isDentalinkMockKey(key)).toBe(true);
    }
    expect(isDentalinkMockKey("3f9a8c1d2e")).toBe(false);
    expect(createDentalinkClient({}).mode).toBe("mock");
    expect(createDentalinkClient({ apiKey: KEY, baseUrl: BASE }).mode).toBe("live");
  });
});

describe("requests", () => {
  it("sends the token and the q filter as URL-encoded JSON", async () => {
    const { fetch, calls } = recording(() => ({ data: [] }));
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: `${BASE}/`, fetch });
    await client.findPatients({ rut: "12.345.678-5" });
    const [call] = calls;
    expect(call?.url).toBe(
      `${BASE}/pacientes?q=${encodeURIComponent(JSON.stringify({ rut: { eq: "12345678-5" } }))}`,
    );
    expect(new Headers(call?.init.headers).get("authorization")).toBe(`Token ${KEY}`);
    expect(new URL(call?.url ?? "").searchParams.get("q")).toBe('{"rut":{"eq":"12345678-5"}}');
  });

  it("refuses a patient search without criteria instead of listing every patient", async () => {
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch: recording(() => ({})).fetch });
    await expect(client.findPatients({ rut: " " })).rejects.toBeInstanceOf(DentalinkInputError);
  });

  it("defaults to the vendor's base URL", async () => {
    const { fetch, calls } = recording(() => ({ data: [] }));
    await createDentalinkClient({ apiKey: KEY, fetch }).listPayments("7");
    expect(calls[0]?.url).toBe(`${DENTALINK_DEFAULT_BASE_URL}/pacientes/7/pagos`);
  });
});

describe("pagination", () => {
  it("follows links.next (absolute or relative) and stops at the last page", async () => {
    const { fetch, calls } = recording((url) => {
      const page = Number(url.searchParams.get("cursor") ?? "1");
      const data = [{ id: page, nombre: `P${page}`, monto_pago: 1000 * page }];
      if (page === 1) return { data, links: { next: `${BASE}/pacientes/1/pagos?cursor=2` } };
      if (page === 2) return { data, links: { next: "/api/v1/pacientes/1/pagos?cursor=3" } };
      return { data, links: { next: null } };
    });
    const payments = await createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch }).listPayments("1");
    expect(payments.map((payment) => payment.amountClp)).toEqual([1000, 2000, 3000]);
    expect(calls).toHaveLength(3);
  });

  it("stops with an error after maxPages instead of looping", async () => {
    let page = 0;
    const { fetch, calls } = recording(() => {
      page += 1;
      return { data: [], links: { next: `${BASE}/dentistas?cursor=${page}` } };
    });
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch, maxPages: 4 });
    const error = await client.listDentists().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IntegrationError);
    expect(error).toMatchObject({ code: "TOO_MANY_PAGES", retryable: false });
    expect(calls).toHaveLength(4);
  });

  it("refuses a next link it has already visited", async () => {
    const { fetch } = recording(() => ({ data: [], links: { next: `${BASE}/sucursales` } }));
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch });
    await expect(client.listBranches()).rejects.toMatchObject({ code: "PAGINATION_LOOP" });
  });

  it("never follows a next link to another origin", async () => {
    const { fetch, calls } = recording(() => ({
      data: [],
      links: { next: "https://elsewhere.test/api/v1/sucursales?cursor=2" },
    }));
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch });
    await expect(client.listBranches()).rejects.toMatchObject({ code: "FOREIGN_NEXT_LINK" });
    expect(calls.map((call) => new URL(call.url).origin)).toEqual(["https://dentalink.test"]);
  });
});

describe("catalogue cache", () => {
  it("keeps dentists, branches and states for 10 minutes per client", async () => {
    const time = clock();
    const { fetch, calls } = recording((url) => {
      if (url.pathname.endsWith("/dentistas")) return { data: [{ id: 1, nombre: "Ana" }] };
      if (url.pathname.endsWith("/sucursales")) return { data: [{ id: 1, nombre: "Centro" }] };
      return { data: [{ id: 4, nombre: "Anulado" }] };
    });
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch, now: time.now });
    await Promise.all([
      client.listDentists(),
      client.listDentists(),
      client.listBranches(),
      client.listAppointmentStates(),
    ]);
    expect(calls).toHaveLength(3);
    time.advance(9 * 60_000);
    await client.listDentists();
    expect(calls).toHaveLength(3);
    time.advance(60_000);
    await client.listDentists();
    expect(calls).toHaveLength(4);
    client.clearCatalogueCache();
    await client.listBranches();
    expect(calls).toHaveLength(5);
    // Another client has its own cache.
    await createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch, now: time.now }).listBranches();
    expect(calls).toHaveLength(6);
  });

  it("does not keep a failure", async () => {
    let fail = true;
    const calls: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      calls.push(String(input));
      if (fail) return Response.json({ error: { message: "caído" } }, { status: 503 });
      return Response.json({ data: [{ id: 1, nombre: "Ana" }] });
    }) as typeof globalThis.fetch;
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch, retries: 0, sleep: noSleep });
    await expect(client.listDentists()).rejects.toMatchObject({ status: 503, code: "SERVER_ERROR" });
    fail = false;
    await expect(client.listDentists()).resolves.toEqual([
      { id: "1", name: "Ana", specialty: null, intervalMinutes: null, active: true },
    ]);
    expect(calls).toHaveLength(2);
  });
});

describe("answers the portal cannot use", () => {
  it("is a typed error, never a crash", async () => {
    const { fetch } = recording(() => ({ data: [{ id: 1, fecha: "ayer", hora_inicio: "10:00" }] }));
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch });
    await expect(client.listAppointments("1")).rejects.toMatchObject({
      code: "INVALID_RESPONSE",
      status: 200,
    });
    const missing = recording(() => ({ data: [{ id: 1, fecha: "2026-01-01" }] }));
    const other = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch: missing.fetch });
    await expect(other.listAppointments("1")).rejects.toMatchObject({
      code: "INVALID_RESPONSE",
      body: { record: "appointment", missing: ["time"] },
    });
  });
});

describe("deadline", () => {
  it("the interactive face stops at its deadline; the background face and mock mode have none", async () => {
    // Every call answers after 40 ms; the deadline is 30 ms.
    const slow = ((_input: string | URL | Request, init: RequestInit = {}) =>
      new Promise<Response>((resolve, reject) => {
        const timer = setTimeout(() => resolve(Response.json({ data: [], links: {} })), 40);
        init.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(init.signal?.reason);
        });
      })) as typeof globalThis.fetch;
    const client = createDentalinkClient({ apiKey: KEY, baseUrl: BASE, fetch: slow, deadlineMs: 30 });
    await expect(client.findPatients({ rut: "12.345.678-5" })).rejects.toMatchObject({ code: "TIMEOUT" });
    await expect(client.forBackground().findPatients({ rut: "12.345.678-5" })).resolves.toEqual([]);
    expect(client.forBackground().forBackground()).toBe(client.forBackground());

    const mock = createDentalinkClient({ deadlineMs: 1, mock: { delays: { patientMs: 20, listMs: 20 } } });
    await expect(mock.findPatients({ rut: "12.345.678-5" })).resolves.toHaveLength(1);
  });
});

describe("the demo budgets (mock mode, the fake serves the same)", () => {
  it("have a pending balance for Mi Ficha's 'Pagar saldo', and settled ones owe nothing", async () => {
    const client = createDentalinkClient({ mock: { delays: NO_MOCK_DELAYS } });
    const balances = async (patientId: string) =>
      Object.fromEntries((await client.listTreatments(patientId)).map((item) => [item.id, item.balanceClp]));
    expect(await balances("1001")).toEqual({ "8001": 120_000, "8002": 0 });
    expect(await balances("1000")).toEqual({ "8101": 0, "8102": 105_000 });
  });
});
