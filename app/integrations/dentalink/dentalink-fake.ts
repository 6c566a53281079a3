import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { DEMO_FILE_CONTENTS, DEMO_FILES_BASE } from "./dentalink-demo-records";
import { createDentalinkSimulator } from "./dentalink-mock";
import { createMemoryMockStore, type MockAppointment, type MockPatient } from "./dentalink-mock-store";

/**
 * A fake Dentalink API v1 on 127.0.0.1 for integration tests, end-to-end tests and offline development (ADR 017,
 * 024). It honours the contract the client relies on (docs/research/dentalink-whatsapp-chile.md §1): `Authorization: Token <key>` or 401
 * `{error:{message}}`; the JSON `q` filter (400 on malformed JSON or an unknown operator); cursor pagination with
 * absolute `links.next` URLs; 409 on a taken slot (same dentist, date and time); created patients and
 * appointments kept; `PUT /citas/{id}` with a state id. It serves the same deterministic demo data as mock mode
 * (the simulator of `dentalink-mock.ts`), under `/api/v1`. Failures and latency are injected per test. Node
 * built-ins only, so `tests/setup/run-dentalink-fake.mjs` runs it with Node's own TypeScript support.
 *
 * The demo patients' files (documents, x-rays) are served by the fake itself under `/archivos/…` (with the token,
 * as the API's own origin), so the RUT portal's file proxy works against it as against Dentalink.
 *
 * Control routes under `/__fake/` (no key; the fake only listens on loopback) let another process (Playwright)
 * read the state and inject failures: `GET /__fake/state`, `POST /__fake/fail {times,status,body?,method?,path?}`
 * (with `method`/`path`, only matching requests fail: other tests using the same fake are not disturbed),
 * `POST /__fake/recover {path?}` (drops the failures still queued, or only those injected for `path`),
 * `POST /__fake/hang {times,method?,path?}` (also the file downloads),
 * `POST /__fake/latency {ms}`, `POST /__fake/reset`.
 */

export const DENTALINK_FAKE_BASE_PATH = "/api/v1";

export interface DentalinkFakeCall {
  method: string;
  /** Path and query as received. */
  path: string;
  /** The answer's status, or "hang" for an injected timeout. */
  status: number | "hang";
  authorization: string | undefined;
  at: Date;
}

export interface DentalinkFakeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  apiKey: string;
  latencyMs?: number;
  /** Records per list page (default 50). */
  pageSize?: number;
  /**
   * A JSON file keeping what is created in the fake across restarts (`npm run dev`: the portal's database keeps the
   * Dentalink ids of its appointments, so the fake must still have them). Read at start, written after each change.
   */
  stateFile?: string;
}

/** Which requests an injected failure applies to (all when empty). */
export interface DentalinkFailureMatch {
  method?: string;
  /** A substring of the request's decoded path and query, e.g. `/citas` or a patient's e-mail. */
  path?: string;
}

export interface DentalinkFakeState {
  /** Patients created through the API (the demo patients are served besides them). */
  patients: MockPatient[];
  /** Appointments created or changed (cancelled) through the API. */
  appointments: MockAppointment[];
  /** Every API request, failed ones included (counts retries). */
  calls: DentalinkFakeCall[];
}

export interface DentalinkFake {
  /** The API's base URL (`http://127.0.0.1:<port>/api/v1`): the client's `baseUrl`. */
  url: string;
  /** `http://127.0.0.1:<port>`, where the `/__fake/*` control routes are. */
  origin: string;
  port: number;
  state: DentalinkFakeState;
  /**
   * The next `times` API requests (those matching `match`, if given) answer `status` with `body` (default the
   * vendor's `{error:{message}}`).
   */
  failNext(times: number, status: number, body?: unknown, match?: DentalinkFailureMatch): void;
  /** Drops the failures still queued: the service "recovers". */
  recover(): void;
  /** The next `times` requests (API or file downloads; those matching `match`, if given) never answer. */
  hang(times: number, match?: DentalinkFailureMatch): void;
  setLatency(ms: number): void;
  setPageSize(size: number): void;
  reset(): void;
  close(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;
/** Where the fake serves the demo files (outside the API's base path, as a storage URL would be). */
const FILES_PATH = "/archivos";

interface Failure {
  times: number;
  status: number | "hang";
  body?: unknown;
  match?: DentalinkFailureMatch;
}

const defaultMessages: Record<number, string> = {
  400: "Solicitud inválida",
  401: "No autorizado",
  403: "Acceso denegado",
  404: "Recurso no encontrado",
  409: "Conflicto",
  429: "Demasiadas solicitudes",
  500: "Error interno del servidor",
  502: "Bad Gateway",
  503: "Servicio no disponible",
};

export function defaultErrorBody(status: number): unknown {
  return { error: { message: defaultMessages[status] ?? `Error ${status}` } };
}

function readBody(request: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tableRows(cells: unknown[][]): string {
  return cells
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(String(cell ?? ""))}</td>`).join("")}</tr>`)
    .join("");
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path.replace(/\+/g, " "));
  } catch {
    return path;
  }
}

function count(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
}

export async function startDentalinkFake(options: DentalinkFakeOptions): Promise<DentalinkFake> {
  const initialLatency = options.latencyMs ?? 0;
  const initialPageSize = options.pageSize ?? 50;
  let latencyMs = initialLatency;
  const store = createMemoryMockStore();
  let origin = "";
  const simulator = createDentalinkSimulator({
    store,
    pageSize: initialPageSize,
    basePath: DENTALINK_FAKE_BASE_PATH,
    fileUrl: (demoUrl) => demoUrl.replace(DEMO_FILES_BASE, `${origin}${FILES_PATH}`),
  });
  const calls: DentalinkFakeCall[] = [];
  const failures: Failure[] = [];
  const hanging = new Set<http.ServerResponse>();

  if (options.stateFile) {
    let saved: { patients?: MockPatient[]; appointments?: MockAppointment[] } = {};
    try {
      saved = JSON.parse(readFileSync(options.stateFile, "utf8")) as typeof saved;
    } catch {
      // No file yet (or unreadable): start from the demo data alone.
    }
    for (const patient of saved.patients ?? []) await store.savePatient(patient);
    for (const appointment of saved.appointments ?? []) await store.saveAppointment(appointment);
  }

  function persist() {
    if (!options.stateFile) return;
    mkdirSync(dirname(options.stateFile), { recursive: true });
    const state = { patients: store.patients, appointments: store.appointments };
    writeFileSync(options.stateFile, JSON.stringify(state, null, 2));
  }

  function takeFailure(method: string, path: string, only: (failure: Failure) => boolean = () => true) {
    const index = failures.findIndex(
      (failure) =>
        only(failure) &&
        (!failure.match?.method || failure.match.method.toUpperCase() === method) &&
        (!failure.match?.path || path.includes(failure.match.path)),
    );
    const failure = failures[index];
    if (!failure) return undefined;
    failure.times -= 1;
    if (failure.times <= 0) failures.splice(index, 1);
    return failure;
  }

  function reset() {
    store.clear();
    calls.length = 0;
    failures.length = 0;
    latencyMs = initialLatency;
    simulator.setPageSize(initialPageSize);
    persist();
  }

  async function control(path: string, method: string, body: unknown, response: http.ServerResponse) {
    const input = isObject(body) ? body : {};
    if (path === "/__fake/state" && method === "GET") {
      return send(response, 200, { patients: store.patients, appointments: store.appointments, calls });
    }
    if (method !== "POST") return send(response, 405, defaultErrorBody(405));
    if (path === "/__fake/reset") {
      reset();
      return send(response, 200, { ok: true });
    }
    if (path === "/__fake/fail") {
      const status = count(input.status, 500);
      const match = {
        ...(typeof input.method === "string" ? { method: input.method } : {}),
        ...(typeof input.path === "string" ? { path: input.path } : {}),
      };
      failures.push({ times: Math.max(1, count(input.times, 1)), status, body: input.body, match });
      return send(response, 200, { ok: true });
    }
    if (path === "/__fake/recover") {
      // With a `path`, only the failures injected for it (another test's stay).
      const scoped = typeof input.path === "string" ? input.path : undefined;
      for (let index = failures.length - 1; index >= 0; index--) {
        if (scoped === undefined || failures[index]!.match?.path === scoped) failures.splice(index, 1);
      }
      return send(response, 200, { ok: true });
    }
    if (path === "/__fake/hang") {
      const match = {
        ...(typeof input.method === "string" ? { method: input.method } : {}),
        ...(typeof input.path === "string" ? { path: input.path } : {}),
      };
      failures.push({ times: Math.max(1, count(input.times, 1)), status: "hang", match });
      return send(response, 200, { ok: true });
    }
    if (path === "/__fake/latency") {
      latencyMs = count(input.ms, 0);
      return send(response, 200, { ok: true });
    }
    return send(response, 404, defaultErrorBody(404));
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const method = (request.method ?? "GET").toUpperCase();
    const url = new URL(request.url ?? "/", origin);
    const text = await readBody(request);
    if (text === null) return send(response, 413, defaultErrorBody(413));
    let body: unknown;
    if (text !== "") {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        if (url.pathname.startsWith("/__fake/")) return send(response, 400, defaultErrorBody(400));
        body = Symbol.for("malformed");
      }
    }
    if (url.pathname.startsWith("/__fake/")) return control(url.pathname, method, body, response);
    if (url.pathname.startsWith(`${FILES_PATH}/`) && method === "GET") {
      // An injected hang holds downloads too (an outage); the other failures stay the API's.
      if (takeFailure(method, url.pathname, (failure) => failure.status === "hang")) return hold(response);
      return file(url, request, response);
    }
    if (url.pathname === "/" && method === "GET") return panel(response);

    const log: DentalinkFakeCall = {
      method,
      path: `${url.pathname}${url.search}`,
      status: 200,
      authorization: request.headers.authorization,
      at: new Date(),
    };
    calls.push(log);
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const answer = (status: number, payload: unknown) => {
      log.status = status;
      send(response, status, payload);
    };

    if (request.headers.authorization !== `Token ${options.apiKey}`) {
      return answer(401, { error: { message: "Token inválido o ausente" } });
    }
    const failure = takeFailure(method, decoded(log.path));
    if (failure?.status === "hang") {
      log.status = "hang";
      return hold(response);
    }
    if (failure) return answer(failure.status, failure.body ?? defaultErrorBody(failure.status));
    if (body === Symbol.for("malformed")) return answer(400, { error: { message: "JSON inválido" } });
    const result = await simulator.handle({ method, url, body });
    if (method !== "GET" && result.status < 300) persist();
    return answer(result.status, result.body);
  }

  /** Never answers; the connection is dropped when the client gives up or the fake closes. */
  function hold(response: http.ServerResponse) {
    hanging.add(response);
    response.on("close", () => hanging.delete(response));
  }

  /** A stand-in for the clinic's Dentalink dashboard ('Ver en Dentalink'): what was created in the fake. */
  function panel(response: http.ServerResponse) {
    const rows = tableRows;
    const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Dentalink (fake)</title></head><body>
<h1>Dentalink (servidor de prueba)</h1>
<h2>Pacientes creados</h2><table data-testid="fake-patients"><tr><th>ID</th><th>Nombre</th><th>RUT</th><th>E-mail</th></tr>${rows(
      store.patients.map((item) => [item.id, `${item.nombre} ${item.apellidos}`, item.rut, item.email]),
    )}</table>
<h2>Citas creadas o cambiadas</h2><table data-testid="fake-appointments"><tr><th>ID</th><th>Paciente</th><th>Dentista</th><th>Fecha</th><th>Hora</th><th>Estado</th></tr>${rows(
      store.appointments.map((item) => [
        item.id,
        item.id_paciente,
        item.id_dentista,
        item.fecha,
        item.hora_inicio,
        item.id_estado,
      ]),
    )}</table></body></html>`;
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-length": Buffer.byteLength(html),
    });
    response.end(html);
  }

  function file(url: URL, request: http.IncomingMessage, response: http.ServerResponse) {
    if (request.headers.authorization !== `Token ${options.apiKey}`) {
      return send(response, 401, { error: { message: "Token inválido o ausente" } });
    }
    const demo = DEMO_FILE_CONTENTS.get(`${DEMO_FILES_BASE}${url.pathname.slice(FILES_PATH.length)}`);
    if (!demo) return send(response, 404, defaultErrorBody(404));
    response.writeHead(200, { "content-type": demo.contentType, "content-length": demo.bytes.byteLength });
    response.end(demo.bytes);
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, defaultErrorBody(500));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}${DENTALINK_FAKE_BASE_PATH}`,
    origin,
    port,
    state: { patients: store.patients, appointments: store.appointments, calls },
    failNext(times, status, body, match) {
      failures.push({ times: Math.max(1, times), status, body, match });
    },
    recover() {
      failures.length = 0;
    },
    hang(times, match) {
      failures.push({ times: Math.max(1, times), status: "hang", match });
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    setPageSize(size) {
      simulator.setPageSize(size);
    },
    reset,
    async close() {
      for (const response of hanging) response.destroy();
      hanging.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
