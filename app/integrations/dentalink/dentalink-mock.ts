import {
  MOCK_APPOINTMENT_STATES,
  MOCK_APPOINTMENTS,
  MOCK_BRANCHES,
  MOCK_DENTISTS,
  MOCK_FILES,
  MOCK_PATIENTS,
  MOCK_PAYMENTS,
  MOCK_TREATMENTS,
} from "./dentalink-demo-data";
import type { DentalinkMockStore, MockAppointment, MockPatient } from "./dentalink-mock-store";
import {
  canonicalRut,
  dentalinkCreateAppointmentRequestSchema,
  dentalinkCreatePatientRequestSchema,
  dentalinkFilterSchema,
  dentalinkUpdateAppointmentRequestSchema,
  normaliseDentalinkDate,
  type DentalinkCondition,
} from "./dentalink-schemas";

/**
 * Dentalink without Dentalink: a deterministic in-process simulation of API v1 over demo data (DESIGN decision
 * 12). Two users:
 * - **mock mode** (no API key, or the placeholder): `createDentalinkMockFetch` answers the client's requests
 *   like the API, so the same client code, parsing and mapping run; a real call's delays (1.5 s for the patient,
 *   1 s per list) are configurable and zero in tests;
 * - the **fake server** (`dentalink-fake.ts`) wraps the same simulator in HTTP.
 *
 * Nothing is random: ids are the next integer after the largest known one, the demo data is fixed. What is
 * created (patients, appointments, cancellations) is kept in a `DentalinkMockStore`; the feature implements it
 * over our database (so what a sync created survives a restart: ADR 019), tests use `createMemoryMockStore`. Dentalink does not
 * de-duplicate patients, and neither does this: the client searches before it creates.
 *
 * Node built-ins and the client-safe schemas only, so the fake's runner can load it with Node's type stripping.
 */

// ---- The simulator --------------------------------------------------------------------------------------------

export interface SimulatedRequest {
  method: string;
  /** The absolute request URL (its origin and path make the `links.next` of a paged answer). */
  url: URL;
  /** The parsed JSON body, undefined without one. */
  body: unknown;
}

export interface SimulatedAnswer {
  status: number;
  body: unknown;
}

export interface DentalinkSimulatorOptions {
  store: DentalinkMockStore;
  /** Records per page of a list (default 50); `links.next` is present while more remain. */
  pageSize?: number;
  /** The API's path prefix before `/pacientes` etc. (default `/api/v1`). */
  basePath?: string;
  /**
   * Where the demo files are served (the fake: its own `/archivos/…`); default the demo URLs, which mock mode
   * answers in process (`dentalink-files.server.ts`).
   */
  fileUrl?: (demoUrl: string) => string;
}

export interface DentalinkSimulator {
  handle(request: SimulatedRequest): Promise<SimulatedAnswer>;
  setPageSize(size: number): void;
}

type Row = Record<string, unknown>;

function errorBody(message: string) {
  return { error: { message } };
}

function notFound(message = "Recurso no encontrado"): SimulatedAnswer {
  return { status: 404, body: errorBody(message) };
}

function badRequest(message: string): SimulatedAnswer {
  return { status: 400, body: errorBody(message) };
}

const CURSOR_PREFIX = "o:";

function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`).toString("base64url");
}

function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (!text.startsWith(CURSOR_PREFIX)) return null;
  const offset = Number(text.slice(CURSOR_PREFIX.length));
  return Number.isInteger(offset) && offset >= 0 ? offset : null;
}

function fold(value: string): string {
  return value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

function sameId(a: unknown, b: unknown): boolean {
  return a !== undefined && a !== null && String(a) === String(b);
}

/** A record value against one condition, as MySQL would: case-insensitive text, numbers as numbers. */
function matches(value: unknown, condition: DentalinkCondition): boolean {
  for (const [operator, expected] of Object.entries(condition)) {
    if (expected === undefined) continue;
    if (value === undefined || value === null) return false;
    const left = String(value);
    const right = String(expected);
    const numeric =
      left.trim() !== "" &&
      right.trim() !== "" &&
      !Number.isNaN(Number(left)) &&
      !Number.isNaN(Number(right));
    const compare = numeric ? Number(left) - Number(right) : fold(left).localeCompare(fold(right));
    const ok =
      operator === "eq"
        ? compare === 0
        : operator === "neq"
          ? compare !== 0
          : operator === "gt"
            ? compare > 0
            : operator === "gte"
              ? compare >= 0
              : operator === "lt"
                ? compare < 0
                : operator === "lte"
                  ? compare <= 0
                  : fold(left).includes(fold(right).replace(/%/g, ""));
    if (!ok) return false;
  }
  return true;
}

/** Date fields compare as AAAA-MM-DD whatever way the record writes them. */
function comparable(field: string, value: unknown): unknown {
  if (typeof value === "string" && field.startsWith("fecha")) return normaliseDentalinkDate(value) ?? value;
  return value;
}

function cancels(state: Row | undefined): boolean {
  return state !== undefined && (state.anulacion === 1 || /anulad|cancelad/.test(fold(String(state.nombre))));
}

/** The appointment as the API shows it: with the names of its patient, dentist, branch and state. */
function appointmentRecord(appointment: MockAppointment, people: readonly MockPatient[]): Row {
  const patient = people.find((item) => item.id === appointment.id_paciente);
  const dentist = MOCK_DENTISTS.find((item) => sameId(item.id, appointment.id_dentista));
  const branch = MOCK_BRANCHES.find((item) => sameId(item.id, appointment.id_sucursal));
  const state = MOCK_APPOINTMENT_STATES.find((item) => sameId(item.id, appointment.id_estado));
  const [hour = 0, minute = 0] = appointment.hora_inicio.split(":").map(Number);
  const end = hour * 60 + minute + appointment.duracion;
  return {
    id: appointment.id,
    id_paciente: appointment.id_paciente,
    nombre_paciente: patient ? `${patient.nombre} ${patient.apellidos}` : "",
    id_estado: appointment.id_estado,
    estado_cita: state?.nombre ?? "",
    estado_anulacion: state?.anulacion ?? 0,
    nombre_tratamiento: appointment.nombre_tratamiento ?? "Diagnóstico",
    fecha: appointment.fecha,
    hora_inicio: `${appointment.hora_inicio}:00`,
    hora_fin: `${String(Math.floor(end / 60)).padStart(2, "0")}:${String(end % 60).padStart(2, "0")}:00`,
    duracion: appointment.duracion,
    id_dentista: appointment.id_dentista,
    nombre_dentista: dentist ? `${dentist.nombre} ${dentist.apellidos}` : "",
    id_sucursal: appointment.id_sucursal,
    nombre_sucursal: branch?.nombre ?? "",
    comentarios: appointment.comentarios ?? "",
  };
}
export function createDentalinkSimulator(options: DentalinkSimulatorOptions): DentalinkSimulator {
  const { store } = options;
  const basePath = (options.basePath ?? "/api/v1").replace(/\/+$/, "");
  let pageSize = options.pageSize ?? 50;
  /** Writes one at a time, so two creates never take the same id. */
  let writes: Promise<unknown> = Promise.resolve();

  function serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = writes.then(task, task);
    writes = run.catch(() => undefined);
    return run;
  }

  async function patients(): Promise<MockPatient[]> {
    const stored = await store.loadPatients();
    const storedIds = new Set(stored.map((patient) => patient.id));
    return [...MOCK_PATIENTS.filter((patient) => !storedIds.has(patient.id)), ...stored];
  }

  async function appointments(): Promise<MockAppointment[]> {
    const stored = await store.loadAppointments();
    const storedIds = new Set(stored.map((appointment) => appointment.id));
    return [...MOCK_APPOINTMENTS.filter((appointment) => !storedIds.has(appointment.id)), ...stored];
  }

  /** A list answer: filtered by `q`, one page from `cursor`, `links.next` while more remain. */
  function list(url: URL, rows: readonly Row[]): SimulatedAnswer {
    let selected = rows;
    const q = url.searchParams.get("q");
    if (q !== null) {
      let filter: unknown;
      try {
        filter = JSON.parse(q);
      } catch {
        return badRequest("El parámetro q no es un JSON válido");
      }
      const parsed = dentalinkFilterSchema.safeParse(filter);
      if (!parsed.success) return badRequest("El parámetro q no es un filtro válido");
      selected = rows.filter((row) =>
        Object.entries(parsed.data).every(([field, conditions]) =>
          (Array.isArray(conditions) ? conditions : [conditions]).every((condition) =>
            matches(comparable(field, row[field]), condition),
          ),
        ),
      );
    }
    const cursor = url.searchParams.get("cursor");
    const offset = cursor === null ? 0 : decodeCursor(cursor);
    if (offset === null) return badRequest("Cursor inválido");
    const page = selected.slice(offset, offset + pageSize);
    const body: Row = { data: page };
    if (offset + pageSize < selected.length) {
      const next = new URL(url);
      next.searchParams.set("cursor", encodeCursor(offset + pageSize));
      body.links = { next: next.toString() };
    }
    return { status: 200, body };
  }

  async function createPatient(input: unknown): Promise<SimulatedAnswer> {
    const parsed = dentalinkCreatePatientRequestSchema.safeParse(input);
    if (!parsed.success) return badRequest("Los campos nombre y apellidos son obligatorios");
    return serialised(async () => {
      const all = await patients();
      const data = parsed.data;
      const patient: MockPatient = {
        id: Math.max(1000, ...all.map((item) => item.id)) + 1,
        nombre: data.nombre.trim(),
        apellidos: data.apellidos.trim(),
        ...(data.rut ? { rut: canonicalRut(data.rut) } : {}),
        ...(data.email ? { email: data.email } : {}),
        ...(data.celular ? { celular: data.celular } : {}),
        ...(data.fecha_nacimiento ? { fecha_nacimiento: data.fecha_nacimiento } : {}),
        ...(data.direccion ? { direccion: data.direccion } : {}),
        ...(data.ciudad ? { ciudad: data.ciudad } : {}),
      };
      await store.savePatient(patient);
      return { status: 201, body: { data: patient } };
    });
  }

  async function createAppointment(input: unknown): Promise<SimulatedAnswer> {
    const parsed = dentalinkCreateAppointmentRequestSchema.safeParse(input);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")))];
      return badRequest(`Campos inválidos: ${fields.join(", ")}`);
    }
    const data = parsed.data;
    return serialised(async () => {
      const people = await patients();
      if (!people.some((patient) => sameId(patient.id, data.id_paciente))) {
        return badRequest("El paciente no existe");
      }
      if (!MOCK_DENTISTS.some((dentist) => sameId(dentist.id, data.id_dentista))) {
        return badRequest("El dentista no existe");
      }
      if (!MOCK_BRANCHES.some((branch) => sameId(branch.id, data.id_sucursal) && branch.habilitada === 1)) {
        return badRequest("La sucursal no existe o no está habilitada");
      }
      // Without id_estado Dentalink books the appointment as "No confirmado" (docs/research/dentalink-whatsapp-chile.md §1.2).
      const stateId = data.id_estado ?? MOCK_APPOINTMENT_STATES[0].id;
      const state = MOCK_APPOINTMENT_STATES.find((item) => sameId(item.id, stateId));
      if (!state) return badRequest("El estado no existe");
      const all = await appointments();
      const taken = all.some(
        (appointment) =>
          sameId(appointment.id_dentista, data.id_dentista) &&
          appointment.fecha === data.fecha &&
          appointment.hora_inicio === data.hora_inicio &&
          !cancels(MOCK_APPOINTMENT_STATES.find((item) => sameId(item.id, appointment.id_estado))),
      );
      if (taken) {
        return { status: 409, body: errorBody("El horario seleccionado ya no está disponible") };
      }
      const appointment: MockAppointment = {
        id: Math.max(5000, ...all.map((item) => item.id)) + 1,
        id_paciente: Number(data.id_paciente),
        id_dentista: data.id_dentista,
        id_sucursal: data.id_sucursal,
        id_estado: state.id,
        fecha: data.fecha,
        hora_inicio: data.hora_inicio,
        duracion: data.duracion ?? 30,
        ...(data.comentario ? { comentarios: data.comentario } : {}),
      };
      await store.saveAppointment(appointment);
      return { status: 201, body: { data: appointmentRecord(appointment, people) } };
    });
  }

  async function updateAppointment(appointmentId: string, input: unknown): Promise<SimulatedAnswer> {
    const parsed = dentalinkUpdateAppointmentRequestSchema.safeParse(input);
    if (!parsed.success) return badRequest("El campo id_estado es obligatorio");
    const stateId = parsed.data.id_estado;
    if (!MOCK_APPOINTMENT_STATES.some((state) => sameId(state.id, stateId))) {
      return badRequest("El estado no existe");
    }
    return serialised(async () => {
      const all = await appointments();
      const appointment = all.find((item) => sameId(item.id, appointmentId));
      if (!appointment) return notFound("La cita no existe");
      const updated: MockAppointment = {
        ...appointment,
        id_estado: stateId,
        ...(parsed.data.comentarios ? { comentarios: parsed.data.comentarios } : {}),
      };
      await store.saveAppointment(updated);
      return { status: 200, body: { data: appointmentRecord(updated, await patients()) } };
    });
  }

  async function handle({ method, url, body }: SimulatedRequest): Promise<SimulatedAnswer> {
    if (!url.pathname.startsWith(`${basePath}/`)) return notFound();
    const parts = url.pathname
      .slice(basePath.length + 1)
      .split("/")
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
    const [resource, id, sub] = parts;
    if (parts.length > 3) return notFound();

    if (resource === "pacientes") {
      if (id === undefined) {
        if (method === "GET") return list(url, (await patients()) as unknown as Row[]);
        if (method === "POST") return createPatient(body);
        return { status: 405, body: errorBody("Método no permitido") };
      }
      if (method !== "GET") return { status: 405, body: errorBody("Método no permitido") };
      const people = await patients();
      const patient = people.find((item) => sameId(item.id, id));
      if (!patient) return notFound("El paciente no existe");
      if (sub === undefined) return { status: 200, body: { data: patient } };
      const own = (rows: readonly Row[]) => rows.filter((row) => sameId(row.id_paciente, patient.id));
      if (sub === "citas") {
        const rows = (await appointments())
          .filter((appointment) => appointment.id_paciente === patient.id)
          .toSorted((a, b) => `${a.fecha} ${a.hora_inicio}`.localeCompare(`${b.fecha} ${b.hora_inicio}`))
          .map((appointment) => appointmentRecord(appointment, people));
        return list(url, rows);
      }
      if (sub === "pagos") return list(url, own(MOCK_PAYMENTS as unknown as Row[]));
      if (sub === "tratamientos") return list(url, own(MOCK_TREATMENTS as unknown as Row[]));
      if (sub === "archivos") {
        const files = own(MOCK_FILES as unknown as Row[]);
        const { fileUrl } = options;
        return list(
          url,
          fileUrl ? files.map((file) => ({ ...file, url: fileUrl(String(file.url)) })) : files,
        );
      }
      return notFound();
    }

    if (resource === "dentistas" && id === undefined && method === "GET") {
      return list(url, MOCK_DENTISTS as unknown as Row[]);
    }
    if (resource === "sucursales" && id === undefined && method === "GET") {
      return list(url, MOCK_BRANCHES as unknown as Row[]);
    }

    if (resource === "citas") {
      if (id === "estados" && sub === undefined && method === "GET") {
        return list(url, MOCK_APPOINTMENT_STATES as unknown as Row[]);
      }
      if (id === undefined) {
        if (method === "POST") return createAppointment(body);
        return { status: 405, body: errorBody("Método no permitido") };
      }
      if (sub !== undefined) return notFound();
      if (method === "PUT") return updateAppointment(id, body);
      if (method === "GET") {
        const appointment = (await appointments()).find((item) => sameId(item.id, id));
        if (!appointment) return notFound("La cita no existe");
        return { status: 200, body: { data: appointmentRecord(appointment, await patients()) } };
      }
      return { status: 405, body: errorBody("Método no permitido") };
    }
    return notFound();
  }

  return {
    handle,
    setPageSize(size) {
      pageSize = Math.max(1, Math.floor(size));
    },
  };
}

// ---- Mock mode: the simulator behind a fetch ---------------------------------------------------------------------

export interface MockDelays {
  /** The patient lookup and patient writes (a real call's 1.5 s). */
  patientMs: number;
  /** Every other call, each list (a real call's 1 s). */
  listMs: number;
}

export const SPEC_MOCK_DELAYS: MockDelays = { patientMs: 1_500, listMs: 1_000 };
export const NO_MOCK_DELAYS: MockDelays = { patientMs: 0, listMs: 0 };

export interface DentalinkMockFetchOptions {
  store: DentalinkMockStore;
  /** Default: the spec's delays. Tests pass `NO_MOCK_DELAYS`. */
  delays?: MockDelays;
  pageSize?: number;
  /** The client's base URL path (default `/api/v1`). */
  basePath?: string;
  sleep?: (ms: number) => Promise<void>;
}

function abortable(wait: Promise<void>, signal: AbortSignal | null | undefined): Promise<void> {
  if (!signal) return wait;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    wait.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A `fetch` that answers like Dentalink from the simulator: the client's mock mode. Honours the request's abort
 * signal (the client's timeout) during the delay.
 */
export function createDentalinkMockFetch(options: DentalinkMockFetchOptions): typeof globalThis.fetch {
  const delays = options.delays ?? SPEC_MOCK_DELAYS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const basePath = (options.basePath ?? "/api/v1").replace(/\/+$/, "");
  const simulator = createDentalinkSimulator({
    store: options.store,
    pageSize: options.pageSize,
    basePath,
  });

  const mockFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? "GET").toUpperCase();
    const signal = init.signal;
    const isPatient = /\/pacientes(\/[^/]+)?$/.test(url.pathname);
    const delay = isPatient ? delays.patientMs : delays.listMs;
    if (delay > 0) await abortable(sleep(delay), signal);
    else if (signal?.aborted) throw signal.reason;
    let body: unknown;
    if (typeof init.body === "string" && init.body !== "") {
      try {
        body = JSON.parse(init.body) as unknown;
      } catch {
        return Response.json(errorBody("El cuerpo no es JSON válido"), { status: 400 });
      }
    }
    const answer = await simulator.handle({ method, url, body });
    return Response.json(answer.body, { status: answer.status });
  };
  return mockFetch as typeof globalThis.fetch;
}
