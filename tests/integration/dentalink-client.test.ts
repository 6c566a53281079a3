import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createDentalinkClient,
  type DentalinkClientOptions,
} from "~/integrations/dentalink/dentalink-client.server";
import { startDentalinkFake, type DentalinkFake } from "~/integrations/dentalink/dentalink-fake";
import { createDentalinkFileFetcher } from "~/integrations/dentalink/dentalink-files.server";
import { IntegrationError } from "~/integrations/http.server";

// The Dentalink client against the fake API over real HTTP: reads with mapping, each error class, retries,
// timeouts, pagination, search before create, taken slots, cancellation and the circuit breaker. No mocks: the
// fake answers as Dentalink does (docs/research/dentalink-whatsapp-chile.md §1).

const API_KEY = `key-${randomUUID()}`;

let fake: DentalinkFake;

beforeAll(async () => {
  fake = await startDentalinkFake({ apiKey: API_KEY });
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
});

function client(overrides: Partial<DentalinkClientOptions> = {}) {
  return createDentalinkClient({
    baseUrl: fake.url,
    apiKey: API_KEY,
    // The fake answers from this process's event loop, which PGlite blocks while it runs a statement: on a
    // loaded machine 2 s was not always enough (CI). The timeout tests pass their own.
    timeoutMs: 10_000,
    retries: 2,
    backoff: { baseMs: 5, maxMs: 20 },
    ...overrides,
  });
}

async function integrationFailure(promise: Promise<unknown>): Promise<IntegrationError> {
  const error = await promise.then(
    () => new Error("expected a failure"),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(IntegrationError);
  return error as IntegrationError;
}

function apiCalls(method?: string) {
  return fake.state.calls.filter((call) => !method || call.method === method);
}

describe("reads", () => {
  it("finds a patient by RUT with the token and maps the record (DD/MM/AAAA birth date normalised)", async () => {
    const patients = await client().findPatients({ rut: "12.345.678-5" });
    expect(patients).toEqual([
      {
        id: "1001",
        rut: "12345678-5",
        firstName: "Catalina",
        lastName: "Soto",
        name: "Catalina Soto",
        // The RUT portal's demo record (ADR 021): only the demo account's e-mail on file.
        email: "paciente@clinica.example",
        phone: null,
        birthDate: "1988-03-14",
        address: "Los Leones 1450, depto 42",
        city: "Providencia",
      },
    ]);
    expect(apiCalls()).toHaveLength(1);
    expect(apiCalls()[0]?.authorization).toBe(`Token ${API_KEY}`);
    expect(apiCalls()[0]?.path).toContain(`q=${encodeURIComponent('{"rut":{"eq":"12345678-5"}}')}`);
  });

  it("reads a patient's record: citas, pagos, tratamientos, documents and x-rays", async () => {
    const record = await client().getPatientRecord("1001");
    expect(record.appointments.map((item) => [item.date, item.time, item.status, item.dentist])).toEqual([
      ["2025-11-12", "10:00", "Atendido", "Andrés Morales"],
      ["2026-09-15", "09:30", "Confirmado", "Fernanda Vidal"],
      ["2026-10-20", "11:00", "No confirmado", "Fernanda Vidal"],
    ]);
    expect(record.appointments[0]).toMatchObject({ office: "Consultorio 1", statusKind: "completed" });
    expect(record.payments.map((item) => item.amountClp)).toEqual([45000, 360000, 120000]);
    expect(record.treatments.map((item) => [item.name, item.progress, item.status])).toEqual([
      ["Ortodoncia con brackets", 40, "en_proceso"],
      ["Limpieza dental", 100, "completado"],
    ]);
    expect(record.documents.map((item) => item.id)).toEqual(["9001", "9002"]);
    expect(record.documents[0]?.date).toBe("2025-06-02");
    expect(record.xrays.map((item) => item.id)).toEqual(["9003", "9004"]);
    expect(apiCalls().map((call) => call.path.split("?")[0])).toEqual(
      expect.arrayContaining([
        "/api/v1/pacientes/1001/citas",
        "/api/v1/pacientes/1001/pagos",
        "/api/v1/pacientes/1001/tratamientos",
        "/api/v1/pacientes/1001/archivos",
      ]),
    );
  });

  it("lists the catalogues", async () => {
    const dentalink = client();
    expect((await dentalink.listDentists()).map((item) => item.id)).toEqual([
      "dr-morales",
      "dr-vidal",
      "dr-araya",
      "dr-campos",
    ]);
    expect((await dentalink.listBranches()).map((item) => [item.name, item.active])).toEqual([
      ["Sucursal Providencia", true],
      ["Sucursal Las Condes", true],
      ["Sucursal Ñuñoa", false],
    ]);
    const states = await dentalink.listAppointmentStates();
    expect(states.find((state) => state.cancels)).toMatchObject({ id: "1", name: "Anulado" });
  });

  it("follows cursor pagination across 3 pages", async () => {
    fake.setPageSize(2);
    const states = await client().listAppointmentStates();
    expect(states.map((state) => state.name)).toEqual([
      "No confirmado",
      "Confirmado",
      "En box",
      "Atendido",
      "Anulado",
      "No asiste",
    ]);
    const paths = apiCalls().map((call) => call.path);
    expect(paths).toHaveLength(3);
    expect(paths[0]).toBe("/api/v1/citas/estados");
    expect(paths[1]).toMatch(/^\/api\/v1\/citas\/estados\?cursor=/);
    expect(paths[2]).toMatch(/^\/api\/v1\/citas\/estados\?cursor=/);
    expect(apiCalls().every((call) => call.authorization === `Token ${API_KEY}`)).toBe(true);
  });
});

describe("errors", () => {
  it("401 with a wrong key: not retried, and the key never appears in the error", async () => {
    const wrongKey = `wrong-${randomUUID()}`;
    const error = await integrationFailure(client({ apiKey: wrongKey }).listDentists());
    expect(error).toMatchObject({ system: "dentalink", status: 401, code: "UNAUTHORIZED", attempts: 1 });
    expect(error.body).toEqual({ error: { message: "Token inválido o ausente" } });
    expect(JSON.stringify({ message: error.message, body: error.body })).not.toContain(wrongKey);
    expect(apiCalls()).toHaveLength(1);
  });

  it("400: not retried", async () => {
    fake.failNext(1, 400, { message: "Parámetro inválido" });
    const error = await integrationFailure(client().listPayments("1001"));
    expect(error).toMatchObject({ status: 400, code: "BAD_REQUEST", attempts: 1 });
    expect(apiCalls()).toHaveLength(1);
  });

  it("the fake answers 400 to a malformed q, as the API does", async () => {
    const response = await fetch(`${fake.url}/pacientes?q=${encodeURIComponent("{rut:")}`, {
      headers: { authorization: `Token ${API_KEY}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { message: "El parámetro q no es un JSON válido" } });
  });

  it("429 then success: retried", async () => {
    fake.failNext(1, 429);
    const dentists = await client().listDentists();
    expect(dentists).toHaveLength(4);
    expect(apiCalls().map((call) => call.status)).toEqual([429, 200]);
  });

  it("5xx: retried up to the bound, then SERVER_ERROR", async () => {
    fake.failNext(5, 503);
    const error = await integrationFailure(client({ retries: 2 }).listBranches());
    expect(error).toMatchObject({ status: 503, code: "SERVER_ERROR", attempts: 3, retryable: true });
    expect(apiCalls().map((call) => call.status)).toEqual([503, 503, 503]);
  });

  it("a timeout: TIMEOUT after the bound; a later answer within the retries succeeds", async () => {
    fake.hang(1);
    const error = await integrationFailure(client({ timeoutMs: 150, retries: 0 }).listDentists());
    expect(error).toMatchObject({ status: null, code: "TIMEOUT", attempts: 1 });

    fake.reset();
    fake.hang(1);
    await expect(client({ timeoutMs: 150, retries: 1 }).listDentists()).resolves.toHaveLength(4);
    expect(apiCalls().map((call) => call.status)).toEqual(["hang", 200]);
  });

  it("a create is not retried on a 5xx (a lost answer may hide a created record)", async () => {
    fake.failNext(1, 500);
    const error = await integrationFailure(
      client().createPatient({ firstName: "Rosa", lastName: "Díaz", email: "rosa@correo.example" }),
    );
    expect(error).toMatchObject({ status: 500, attempts: 1 });
    expect(apiCalls("POST")).toHaveLength(1);
    expect(fake.state.patients).toHaveLength(0);
  });
});

describe("search before create", () => {
  it("reuses an existing patient found by RUT, e-mail or phone, and creates only a new one", async () => {
    const dentalink = client();
    const existing = await dentalink.findOrCreatePatient({
      firstName: "Catalina",
      lastName: "Soto",
      rut: "12.345.678-5",
      email: "otra@correo.example",
    });
    expect(existing).toMatchObject({ created: false, matchedBy: "rut", patient: { id: "1001" } });
    expect(apiCalls("POST")).toHaveLength(0);

    const input = {
      firstName: "Rosa",
      lastName: "Díaz",
      email: "Rosa.Diaz@correo.example",
      phone: "+56955554444",
      birthDate: "21/06/1990",
    };
    const created = await dentalink.findOrCreatePatient(input);
    expect(created).toMatchObject({
      created: true,
      matchedBy: null,
      patient: { id: "1004", name: "Rosa Díaz", email: "rosa.diaz@correo.example", birthDate: "1990-06-21" },
    });
    expect(fake.state.patients).toEqual([
      expect.objectContaining({ id: 1004, fecha_nacimiento: "1990-06-21", celular: "+56955554444" }),
    ]);

    const again = await dentalink.findOrCreatePatient(input);
    expect(again).toMatchObject({ created: false, matchedBy: "email", patient: { id: "1004" } });
    const byPhone = await dentalink.findOrCreatePatient({
      firstName: "Rosa",
      lastName: "Díaz",
      phone: "+56955554444",
    });
    expect(byPhone).toMatchObject({ created: false, matchedBy: "phone", patient: { id: "1004" } });
    expect(apiCalls("POST")).toHaveLength(1);
    expect(fake.state.patients).toHaveLength(1);
  });
});

describe("appointments", () => {
  it("books, refuses a taken slot with SLOT_TAKEN (not retried), cancels with the looked-up state", async () => {
    const dentalink = client();
    const booked = await dentalink.createAppointment({
      patientId: "1002",
      dentistId: "dr-campos",
      date: "2026-12-01",
      time: "9:00",
      comment: "Primera consulta",
    });
    expect(booked).toMatchObject({
      patientId: "1002",
      date: "2026-12-01",
      time: "09:00",
      durationMinutes: 30,
      dentist: "Isidora Campos",
      dentistId: "dr-campos",
      branch: "Sucursal Providencia",
      status: "No confirmado",
      statusKind: "scheduled",
      office: "Consultorio 1",
    });

    const taken = await integrationFailure(
      dentalink.createAppointment({
        patientId: "1001",
        dentistId: "dr-campos",
        date: "2026-12-01",
        time: "09:00",
      }),
    );
    expect(taken).toMatchObject({ status: 409, code: "SLOT_TAKEN", attempts: 1, retryable: false });
    expect(taken.body).toEqual({ error: { message: "El horario seleccionado ya no está disponible" } });

    const cancelled = await dentalink.cancelAppointment(booked.id, { comment: "Paciente avisa" });
    expect(cancelled).toMatchObject({
      id: booked.id,
      status: "Anulado",
      statusKind: "cancelled",
      stateId: "1",
    });
    const put = apiCalls("PUT")[0];
    expect(put?.path).toBe(`/api/v1/citas/${booked.id}`);
    expect(fake.state.appointments.find((item) => String(item.id) === booked.id)).toMatchObject({
      id_estado: 1,
      comentarios: "Paciente avisa",
    });

    // The slot is free again once cancelled.
    await expect(
      dentalink.createAppointment({
        patientId: "1001",
        dentistId: "dr-campos",
        date: "2026-12-01",
        time: "09:00",
      }),
    ).resolves.toMatchObject({ patientId: "1001" });
  });

  it("a demo appointment's slot is taken too", async () => {
    const error = await integrationFailure(
      client().createAppointment({
        patientId: "1002",
        dentistId: "dr-vidal",
        date: "15/09/2026",
        time: "09:30",
      }),
    );
    expect(error.code).toBe("SLOT_TAKEN");
  });
});

describe("circuit breaker", () => {
  it("opens after 5 consecutive failures, fails fast without calling, and closes after the cool-down", async () => {
    let time = 1_000_000;
    const dentalink = client({ retries: 0, now: () => time });
    fake.failNext(5, 500);
    for (let i = 0; i < 5; i += 1) {
      const error = await integrationFailure(dentalink.listPayments("1001"));
      expect(error.code).toBe("SERVER_ERROR");
    }
    expect(dentalink.status()).toEqual({
      mode: "live",
      circuit: { state: "open", failures: 5, openedAt: new Date(time) },
    });

    const fast = await integrationFailure(dentalink.listPayments("1001"));
    expect(fast).toMatchObject({ code: "CIRCUIT_OPEN", retryAfterMs: 30_000 });
    expect(apiCalls()).toHaveLength(5);

    time += 30_000;
    expect(dentalink.status().circuit.state).toBe("half-open");
    await expect(dentalink.listPayments("1001")).resolves.toHaveLength(3);
    expect(dentalink.status().circuit).toEqual({ state: "closed", failures: 0, openedAt: null });
  });

  it("a 4xx does not count against the service", async () => {
    const dentalink = client({ retries: 0 });
    fake.failNext(6, 404);
    for (let i = 0; i < 6; i += 1) await integrationFailure(dentalink.getPatient("999"));
    expect(dentalink.status().circuit).toMatchObject({ state: "closed", failures: 0 });
  });
});

describe("pagination safety", () => {
  it("never sends the token to a next link on another origin", async () => {
    const elsewhere: Array<{ url?: string; authorization?: string }> = [];
    const server = http.createServer((request, response) => {
      elsewhere.push({ url: request.url, authorization: request.headers.authorization });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ data: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      for (const next of [
        `http://127.0.0.1:${port}/api/v1/sucursales?cursor=2`,
        `http://localhost:${port}/api/v1/sucursales?cursor=2`,
      ]) {
        fake.failNext(1, 200, { data: [{ id: 1, nombre: "Centro" }], links: { next } });
        const error = await integrationFailure(client().listBranches());
        expect(error).toMatchObject({ code: "FOREIGN_NEXT_LINK", retryable: false });
      }
      expect(elsewhere).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("the standalone fake (npm run dev, Playwright)", () => {
  it("starts from the environment, serves the API with the key it was given and obeys /__fake routes", async () => {
    const child = spawn(
      process.execPath,
      [path.resolve(import.meta.dirname, "../setup/run-dentalink-fake.mjs")],
      {
        env: { PATH: process.env.PATH ?? "", DENTALINK_FAKE_PORT: "0", DENTALINK_API_KEY: API_KEY },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = "";
        const timer = setTimeout(() => reject(new Error(`fake did not start: ${output}`)), 10_000);
        const collect = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /fake dentalink ready (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout.on("data", collect);
        child.stderr.on("data", collect);
      });
      const dentalink = client({ baseUrl: url, retries: 0 });
      await expect(dentalink.listDentists()).resolves.toHaveLength(4);
      const origin = new URL(url).origin;
      await fetch(`${origin}/__fake/fail`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ times: 1, status: 503 }),
      });
      await expect(dentalink.listBranches()).rejects.toMatchObject({ status: 503 });
      const state = (await (await fetch(`${origin}/__fake/state`)).json()) as { calls: unknown[] };
      expect(state.calls).toHaveLength(2);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });
});

describe("the fake as npm run dev and the e2e server use it", () => {
  it("serves mock mode's demo records: the four dentists and the RUT portal's demo patients with their files", async () => {
    const dentalink = client({ retries: 0 });
    expect((await dentalink.listDentists()).map((dentist) => dentist.id)).toEqual([
      "dr-morales",
      "dr-vidal",
      "dr-araya",
      "dr-campos",
    ]);
    const catalina = await dentalink.findPatient({ rut: "12.345.678-5" });
    expect(catalina?.patient).toMatchObject({ id: "1001", email: "paciente@clinica.example" });
    const jorge = await dentalink.findPatient({ rut: "12678579-8" });
    expect(jorge?.patient.id).toBe("1000");
    const [first] = await dentalink.listDocuments("1000");
    const url = first!.url!;
    expect(url.startsWith(`${fake.origin}/archivos/`)).toBe(true);
    // The portal's file proxy downloads it from the fake, as from Dentalink (the token goes to the API's origin).
    const files = createDentalinkFileFetcher({ mode: "live", baseUrl: fake.url, apiKey: API_KEY });
    const downloaded = await files.fetchFile(url);
    expect(downloaded.contentType).toBe("application/pdf");
    const bytes = new Uint8Array(await new Response(downloaded.body as ReadableStream).arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(401);
  });

  it("fails only the requests a failure matches, until it recovers", async () => {
    const dentalink = client({ retries: 0 });
    fake.failNext(100, 503, undefined, { path: "paciente-que-falla@correo.example" });
    await expect(
      dentalink.findPatients({ email: "paciente-que-falla@correo.example" }),
    ).rejects.toMatchObject({
      status: 503,
    });
    // Another patient, another request: untouched.
    await expect(dentalink.findPatients({ email: "otra@correo.example" })).resolves.toEqual([]);
    await expect(dentalink.listBranches()).resolves.not.toHaveLength(0);
    fake.recover();
    await expect(dentalink.findPatients({ email: "paciente-que-falla@correo.example" })).resolves.toEqual([]);
  });

  it("keeps what is created in its state file across a restart, and its panel escapes what it shows", async () => {
    const stateFile = path.join(os.tmpdir(), `dentalink-fake-${randomUUID()}.json`);
    const first = await startDentalinkFake({ apiKey: API_KEY, stateFile });
    let created: string;
    try {
      const patient = await client({ baseUrl: first.url }).createPatient({
        firstName: "<script>alert(1)</script>",
        lastName: "Reinicio",
        email: `reinicio-${randomUUID()}@correo.example`,
      });
      created = patient.id;
      const panel = await (await fetch(`${first.origin}/`)).text();
      expect(panel).toContain("&#60;script&#62;alert(1)&#60;/script&#62; Reinicio");
      expect(panel).not.toContain("<script>");
    } finally {
      await first.close();
    }
    const second = await startDentalinkFake({ apiKey: API_KEY, stateFile });
    try {
      const found = await client({ baseUrl: second.url }).getPatient(created);
      expect(found.lastName).toBe("Reinicio");
    } finally {
      await second.close();
      await rm(stateFile, { force: true });
    }
  });
});
