import { AsyncLocalStorage } from "node:async_hooks";
import type { z } from "zod";
import { createCircuitBreaker, type CircuitSnapshot } from "../circuit-breaker";
import {
  IntegrationError,
  isIntegrationError,
  requestJson,
  type BackoffOptions,
  type Sleep,
} from "../http.server";
import {
  cancelledState,
  mapAppointment,
  mapAppointmentState,
  mapBranch,
  mapDentist,
  mapPatient,
  mapPatientFiles,
  mapPayment,
  mapTreatment,
  type DentalinkAppointment,
  type DentalinkAppointmentState,
  type DentalinkBranch,
  type DentalinkDentist,
  type DentalinkDocument,
  type DentalinkPatient,
  type DentalinkPayment,
  type DentalinkTreatment,
  type DentalinkXray,
} from "./dentalink-mapping";
import { createDentalinkMockFetch, type MockDelays } from "./dentalink-mock";
import { createMemoryMockStore, type DentalinkMockStore } from "./dentalink-mock-store";
import {
  DENTALINK_DEFAULT_BASE_URL,
  DENTALINK_PATHS,
  DENTALINK_SYSTEM,
  canonicalRut,
  dentalinkAppointmentRecordSchema,
  dentalinkAppointmentStateRecordSchema,
  dentalinkBranchRecordSchema,
  dentalinkDentistRecordSchema,
  dentalinkErrorMessage,
  dentalinkFileRecordSchema,
  dentalinkItemSchema,
  dentalinkListSchema,
  dentalinkPatientRecordSchema,
  dentalinkPaymentRecordSchema,
  dentalinkTreatmentRecordSchema,
  nextPageUrl,
  normaliseDentalinkDate,
  normaliseDentalinkTime,
  type DentalinkCreateAppointmentRequest,
  type DentalinkCreatePatientRequest,
  type DentalinkFilter,
  type DentalinkId,
  type DentalinkUpdateAppointmentRequest,
} from "./dentalink-schemas";

/**
 * Server-side client of the Dentalink API v1 (DESIGN decision 12, ADR 017, docs/research/dentalink-whatsapp-chile.md §1): `Authorization: Token
 * <key>`, JSON `q` filters, cursor pagination through `links.next`, the `{data, links}` envelope. Every call has a
 * timeout; reads (and the idempotent cancel) are retried with backoff on 429/5xx/timeouts through `requestJson`,
 * creates are not (a lost answer may hide a created record: the caller searches before it creates again). A
 * circuit breaker fails fast after repeated failures of the service; the catalogues (dentists, branches,
 * appointment states) are cached per client.
 *
 * Without a key (or with a placeholder) the client runs in **mock mode**: the same code talks to the in-process
 * simulator of `dentalink-mock.ts` instead of HTTP.
 */

export type DentalinkMode = "live" | "mock";

export interface DentalinkClientOptions {
  /** Default the vendor's `https://api.dentalink.healthatom.com/api/v1`. */
  baseUrl?: string;
  /** Missing, blank or a placeholder: mock mode. Sent as `Authorization: Token <key>`, never logged. */
  apiKey?: string;
  /** Per attempt (default 8 s). */
  timeoutMs?: number;
  /**
   * Live mode: one budget (ms) for all the HTTP of a call of the interactive face — its attempts, backoff waits and
   * pages — or of a whole `withDentalinkDeadline` scope (a request). None by default; never for `forBackground()`.
   */
  deadlineMs?: number;
  /** Further attempts of a read after a 429, 5xx or timeout (default 2). */
  retries?: number;
  backoff?: BackoffOptions;
  fetch?: typeof globalThis.fetch;
  /** The clock of the circuit breaker and the catalogue cache (ms). */
  now?: () => number;
  sleep?: Sleep;
  /** Most pages one list may take (default 20); more is an error, never an endless loop. */
  maxPages?: number;
  /** How long dentists, branches and states are kept (default 10 minutes). */
  catalogueTtlMs?: number;
  /** Consecutive service failures that open the circuit (default 5) and how long it stays open (default 30 s). */
  circuitBreaker?: { failureThreshold?: number; coolDownMs?: number };
  /** Mock mode: where created records are kept (default in memory, per client), delays, page size. */
  mock?: { store?: DentalinkMockStore; delays?: MockDelays; pageSize?: number };
  onRetry?: (info: { attempt: number; delayMs: number; error: IntegrationError }) => void;
}

export interface DentalinkStatus {
  mode: DentalinkMode;
  circuit: CircuitSnapshot;
}

export interface DentalinkPatientQuery {
  rut?: string;
  email?: string;
  phone?: string;
}

export interface NewDentalinkPatient {
  firstName: string;
  lastName: string;
  rut?: string;
  email?: string;
  phone?: string;
  /** AAAA-MM-DD (DD/MM/AAAA is accepted and converted). */
  birthDate?: string;
  address?: string;
  city?: string;
}

export type PatientMatch = "rut" | "email" | "phone";

export interface FoundOrCreatedPatient {
  patient: DentalinkPatient;
  /** False when an existing patient was reused (Dentalink does not de-duplicate, so we search first). */
  created: boolean;
  matchedBy: PatientMatch | null;
}

export interface NewDentalinkAppointment {
  patientId: string;
  dentistId: string;
  /** Default: the first enabled branch. */
  branchId?: string;
  /** AAAA-MM-DD (DD/MM/AAAA is accepted and converted). */
  date: string;
  /** HH:MM */
  time: string;
  /** Default: the dentist's agenda interval, else 30. */
  durationMinutes?: number;
  /** Default: Dentalink's own (its "No confirmado" state). */
  stateId?: string;
  chairId?: string;
  comment?: string;
}

export interface DentalinkPatientRecordLists {
  appointments: DentalinkAppointment[];
  payments: DentalinkPayment[];
  treatments: DentalinkTreatment[];
  documents: DentalinkDocument[];
  xrays: DentalinkXray[];
}

export interface DentalinkClient {
  readonly mode: DentalinkMode;
  /** For the status list: live or mock, and the circuit breaker's state. */
  status(): DentalinkStatus;
  /** Patients matching every given criterion (`GET /pacientes?q=`); at least one criterion is required. */
  findPatients(query: DentalinkPatientQuery): Promise<DentalinkPatient[]>;
  /** The first patient found by RUT, else by e-mail, else by phone (Dentalink does not de-duplicate). */
  findPatient(
    query: DentalinkPatientQuery,
  ): Promise<{ patient: DentalinkPatient; matchedBy: PatientMatch } | null>;
  getPatient(patientId: string): Promise<DentalinkPatient>;
  /** `POST /pacientes`, not retried. Prefer `findOrCreatePatient`. */
  createPatient(input: NewDentalinkPatient): Promise<DentalinkPatient>;
  findOrCreatePatient(input: NewDentalinkPatient): Promise<FoundOrCreatedPatient>;
  listAppointments(patientId: string): Promise<DentalinkAppointment[]>;
  listPayments(patientId: string): Promise<DentalinkPayment[]>;
  listTreatments(patientId: string): Promise<DentalinkTreatment[]>;
  /** The patient's files, split into documents and x-rays (one endpoint, docs/research/dentalink-whatsapp-chile.md §1.2). */
  listPatientFiles(patientId: string): Promise<{ documents: DentalinkDocument[]; xrays: DentalinkXray[] }>;
  listDocuments(patientId: string): Promise<DentalinkDocument[]>;
  listXrays(patientId: string): Promise<DentalinkXray[]>;
  /** The four lists of a patient's record, fetched in parallel (the wait is the slowest list). */
  getPatientRecord(patientId: string): Promise<DentalinkPatientRecordLists>;
  listDentists(): Promise<readonly DentalinkDentist[]>;
  listBranches(): Promise<readonly DentalinkBranch[]>;
  listAppointmentStates(): Promise<readonly DentalinkAppointmentState[]>;
  /** `POST /citas`, not retried; a taken slot is an `IntegrationError` with code `SLOT_TAKEN`. */
  createAppointment(input: NewDentalinkAppointment): Promise<DentalinkAppointment>;
  /** `PUT /citas/{id}` with the clinic's cancelled state (looked up, never hard-coded). */
  cancelAppointment(
    appointmentId: string,
    options?: { comment?: string; notifyPatient?: boolean },
  ): Promise<DentalinkAppointment>;
  clearCatalogueCache(): void;
  /**
   * The same client (breaker, catalogue cache, mock memory) for background work such as the outbox: no deadline,
   * each attempt waits its full timeout and reads are retried.
   */
  forBackground(): DentalinkClient;
}

/** Input the client refuses before calling (a bug or unvalidated data): never retried, never a breaker failure. */
export class DentalinkInputError extends Error {
  readonly code = "INVALID_INPUT";

  constructor(message: string) {
    super(message);
    this.name = "DentalinkInputError";
  }
}

/** What an unconfigured deployment has instead of a key (`.env` examples, "{key}" templates): mock mode. */
export const DENTALINK_PLACEHOLDER_KEY = "your-dentalink-api-key";

export function isDentalinkMockKey(apiKey: string | undefined | null): boolean {
  const key = apiKey?.trim().toLowerCase() ?? "";
  if (key === "" || key === DENTALINK_PLACEHOLDER_KEY) return true;
  if (/^[<{[].*[>}\]]$/.test(key)) return true;
  if (["placeholder", "changeme", "change-me", "mock", "demo", "xxx", "todo"].includes(key)) return true;
  return /^(your|tu|su)[-_ ]?(dentalink)?[-_ ]?(api)?[-_ ]?(key|token)$/.test(key);
}

/** What a person waits for Dentalink at most in one request (ADR 030), retries included. */
export const DENTALINK_INTERACTIVE_DEADLINE_MS = 5_000;

/** A request's Dentalink budget: `at` is set by its first call of an interactive face. */
interface DeadlineScope {
  at?: number;
  background?: true;
}

const deadlineScopes = new AsyncLocalStorage<DeadlineScope>();

/**
 * Runs `work` (one request) under one Dentalink deadline: every call of an interactive client inside it shares the
 * budget that starts with the first of them, so a slow lookup leaves the record's lists only what is left.
 */
export function withDentalinkDeadline<T>(work: () => Promise<T>): Promise<T> {
  return deadlineScopes.run({}, work);
}

/** What is left (ms) of the request's Dentalink budget once a call has started it; undefined without one. */
export function dentalinkDeadlineLeft(): number | undefined {
  const scope = deadlineScopes.getStore();
  if (!scope || scope.background || scope.at === undefined) return undefined;
  return scope.at - Date.now();
}

export const DENTALINK_DEFAULTS = {
  timeoutMs: 8_000,
  retries: 2,
  maxPages: 20,
  catalogueTtlMs: 10 * 60_000,
} as const;

function statusCode(status: number): string | undefined {
  if (status === 400 || status === 422) return "BAD_REQUEST";
  if (status === 401) return "UNAUTHORIZED";
  if (status === 403) return "FORBIDDEN";
  if (status === 404) return "NOT_FOUND";
  if (status === 409) return "CONFLICT";
  if (status === 429) return "RATE_LIMITED";
  if (status >= 500) return "SERVER_ERROR";
  return undefined;
}

/** The same error with a code (IntegrationError is immutable). */
function withCode(error: IntegrationError, code: string): IntegrationError {
  return new IntegrationError({
    system: error.system,
    status: error.status,
    body: error.body,
    code,
    message: `${error.message} ${code}`,
    attempts: error.attempts,
    retryAfterMs: error.retryAfterMs,
    cause: error.cause,
  });
}

function unusable(code: string, message: string, body: unknown = null): IntegrationError {
  // The answers were successes whose content we cannot use: status 200, so nothing retries them.
  return new IntegrationError({ system: DENTALINK_SYSTEM, status: 200, body, code, message });
}

/** Dentalink ids are integers; keep a numeric id numeric in request bodies, anything else (mock `dr-…`) as is. */
function vendorId(value: string): DentalinkId {
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

function outgoingDate(value: string, field: string): string {
  const date = normaliseDentalinkDate(value);
  if (date === null) throw new DentalinkInputError(`${field}: a date AAAA-MM-DD expected`);
  return date;
}

function optionalText(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function criteria(query: DentalinkPatientQuery): DentalinkFilter {
  const filter: DentalinkFilter = {};
  const rut = optionalText(query.rut);
  const email = optionalText(query.email);
  const phone = optionalText(query.phone);
  if (rut) filter.rut = { eq: canonicalRut(rut) };
  if (email) filter.email = { eq: email.toLowerCase() };
  // Dentalink keeps the mobile number in `celular` (docs/research/dentalink-whatsapp-chile.md §1.2).
  if (phone) filter.celular = { eq: phone };
  if (Object.keys(filter).length === 0) {
    throw new DentalinkInputError("findPatients: a RUT, e-mail or phone is required");
  }
  return filter;
}
export function createDentalinkClient(options: DentalinkClientOptions = {}): DentalinkClient {
  const {
    timeoutMs = DENTALINK_DEFAULTS.timeoutMs,
    retries = DENTALINK_DEFAULTS.retries,
    maxPages = DENTALINK_DEFAULTS.maxPages,
    catalogueTtlMs = DENTALINK_DEFAULTS.catalogueTtlMs,
    now = Date.now,
    deadlineMs,
  } = options;
  const mode: DentalinkMode = isDentalinkMockKey(options.apiKey) ? "mock" : "live";
  const baseUrl = (options.baseUrl?.trim() || DENTALINK_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const base = new URL(baseUrl);
  const apiKey = mode === "live" ? (options.apiKey ?? "").trim() : "mock";
  const fetchImpl =
    mode === "mock"
      ? createDentalinkMockFetch({
          store: options.mock?.store ?? createMemoryMockStore(),
          delays: options.mock?.delays,
          pageSize: options.mock?.pageSize,
          basePath: base.pathname,
          sleep: options.sleep,
        })
      : options.fetch;
  const breaker = createCircuitBreaker({
    system: DENTALINK_SYSTEM,
    failureThreshold: options.circuitBreaker?.failureThreshold,
    coolDownMs: options.circuitBreaker?.coolDownMs,
    now,
  });

  function url(path: string, filter?: DentalinkFilter): string {
    const query = filter ? `?q=${encodeURIComponent(JSON.stringify(filter))}` : "";
    return `${baseUrl}${path}${query}`;
  }

  /** The interactive face's deadline in live mode (the mock never hangs; its spec delays are a demo's). */
  function currentDeadline(): number | undefined {
    const scope = deadlineScopes.getStore();
    if (deadlineMs === undefined || mode === "mock" || !scope || scope.background) return undefined;
    scope.at ??= Date.now() + deadlineMs;
    return scope.at;
  }

  async function call<Schema extends z.ZodType>(request: {
    method: "GET" | "POST" | "PUT";
    url: string;
    schema: Schema;
    body?: unknown;
    retry: boolean;
  }): Promise<z.output<Schema>> {
    const deadline = currentDeadline();
    if (deadline !== undefined && deadline <= Date.now()) {
      // Never sent, so not a failure of the service for the breaker.
      throw new IntegrationError({
        system: DENTALINK_SYSTEM,
        status: null,
        body: null,
        code: "TIMEOUT",
        message: `dentalink: ${request.method} not sent: the request's deadline has passed`,
        attempts: 0,
      });
    }
    return breaker.run(async () => {
      try {
        return await requestJson({
          system: DENTALINK_SYSTEM,
          url: request.url,
          method: request.method,
          headers: { authorization: `Token ${apiKey}` },
          body: request.body,
          timeoutMs,
          deadline,
          retries: request.retry ? retries : 0,
          backoff: options.backoff,
          fetch: fetchImpl,
          sleep: options.sleep,
          schema: request.schema,
          onRetry: options.onRetry,
        });
      } catch (error) {
        if (isIntegrationError(error) && error.code === undefined && error.status !== null) {
          const code = statusCode(error.status);
          if (code) throw withCode(error, code);
        }
        throw error;
      }
    });
  }

  /** Every page of a list: follows `links.next` on the base URL's origin only, at most `maxPages` pages. */
  async function listAll<Item extends z.ZodType>(
    path: string,
    item: Item,
    filter?: DentalinkFilter,
  ): Promise<Array<z.output<Item>>> {
    const schema = dentalinkListSchema(item);
    const items: Array<z.output<Item>> = [];
    const seen = new Set<string>();
    let next: string | undefined = url(path, filter);
    for (let page = 1; next !== undefined; page += 1) {
      if (page > maxPages) {
        throw unusable("TOO_MANY_PAGES", `dentalink: GET ${path} has more than ${maxPages} pages`);
      }
      seen.add(next);
      const answer = await call({ method: "GET", url: next, schema, retry: true });
      items.push(...(answer.data as Array<z.output<Item>>));
      const link = nextPageUrl(answer.links);
      if (link === undefined) break;
      let resolved: URL;
      try {
        resolved = new URL(link, next);
      } catch {
        throw unusable("INVALID_RESPONSE", `dentalink: GET ${path} answered an unreadable links.next`);
      }
      // The token goes only to the configured API: a next link elsewhere is refused, not followed.
      if (resolved.origin !== base.origin) {
        throw unusable(
          "FOREIGN_NEXT_LINK",
          `dentalink: GET ${path} answered a links.next on another origin (${resolved.origin}); not followed`,
        );
      }
      if (seen.has(resolved.href)) {
        throw unusable("PAGINATION_LOOP", `dentalink: GET ${path} answered a links.next already visited`);
      }
      next = resolved.href;
    }
    return items;
  }

  const cache = new Map<string, { expiresAt: number; value: Promise<unknown> }>();

  function cached<T>(name: string, load: () => Promise<T>): Promise<T> {
    // Each face loads its own: an interactive caller must not wait on a background load without a deadline.
    const key = `${deadlineScopes.getStore()?.background ? "background" : "interactive"}:${name}`;
    const at = now();
    const hit = cache.get(key);
    if (hit && hit.expiresAt > at) return hit.value as Promise<T>;
    const value = load();
    const entry = { expiresAt: at + catalogueTtlMs, value };
    cache.set(key, entry);
    // A failure is not cached: the next caller tries again.
    value.catch(() => {
      if (cache.get(key) === entry) cache.delete(key);
    });
    return value;
  }

  async function findPatients(query: DentalinkPatientQuery) {
    const records = await listAll(DENTALINK_PATHS.patients, dentalinkPatientRecordSchema, criteria(query));
    return records.map(mapPatient);
  }

  async function findPatient(query: DentalinkPatientQuery) {
    const order: Array<[PatientMatch, string | undefined]> = [
      ["rut", optionalText(query.rut)],
      ["email", optionalText(query.email)],
      ["phone", optionalText(query.phone)],
    ];
    for (const [field, value] of order) {
      if (!value) continue;
      const [patient] = await findPatients({ [field]: value });
      if (patient) return { patient, matchedBy: field };
    }
    return null;
  }

  async function createPatient(input: NewDentalinkPatient) {
    const firstName = optionalText(input.firstName);
    const lastName = optionalText(input.lastName);
    if (!firstName || !lastName)
      throw new DentalinkInputError("createPatient: first and last name are required");
    const rut = optionalText(input.rut);
    const email = optionalText(input.email);
    const body: DentalinkCreatePatientRequest = {
      nombre: firstName,
      apellidos: lastName,
      ...(rut ? { rut: canonicalRut(rut) } : {}),
      ...(email ? { email: email.toLowerCase() } : {}),
      ...(optionalText(input.phone) ? { celular: optionalText(input.phone) } : {}),
      ...(input.birthDate ? { fecha_nacimiento: outgoingDate(input.birthDate, "birthDate") } : {}),
      ...(optionalText(input.address) ? { direccion: optionalText(input.address) } : {}),
      ...(optionalText(input.city) ? { ciudad: optionalText(input.city) } : {}),
    };
    try {
      const answer = await call({
        method: "POST",
        url: url(DENTALINK_PATHS.patients),
        schema: dentalinkItemSchema(dentalinkPatientRecordSchema),
        body,
        retry: false,
      });
      return mapPatient(answer.data);
    } catch (error) {
      // Some Dentalink versions refuse a duplicate with a 400 whose message says it "ya existe" (gloory).
      if (isIntegrationError(error) && error.status === 400) {
        const message = dentalinkErrorMessage(error.body) ?? "";
        if (/existe/i.test(message)) throw withCode(error, "DUPLICATE_PATIENT");
      }
      throw error;
    }
  }

  async function listAppointments(patientId: string) {
    const records = await listAll(
      DENTALINK_PATHS.patientAppointments(patientId),
      dentalinkAppointmentRecordSchema,
    );
    return records.map(mapAppointment);
  }

  async function listPayments(patientId: string) {
    const records = await listAll(DENTALINK_PATHS.patientPayments(patientId), dentalinkPaymentRecordSchema);
    return records.map(mapPayment);
  }

  async function listTreatments(patientId: string) {
    const records = await listAll(
      DENTALINK_PATHS.patientTreatments(patientId),
      dentalinkTreatmentRecordSchema,
    );
    return records.map(mapTreatment);
  }

  async function listPatientFiles(patientId: string) {
    const records = await listAll(DENTALINK_PATHS.patientFiles(patientId), dentalinkFileRecordSchema);
    return mapPatientFiles(records);
  }

  async function listDentists() {
    return cached("dentists", async () =>
      (await listAll(DENTALINK_PATHS.dentists, dentalinkDentistRecordSchema)).map(mapDentist),
    );
  }

  async function listBranches() {
    return cached("branches", async () =>
      (await listAll(DENTALINK_PATHS.branches, dentalinkBranchRecordSchema)).map(mapBranch),
    );
  }

  async function listAppointmentStates() {
    return cached("states", async () =>
      (await listAll(DENTALINK_PATHS.appointmentStates, dentalinkAppointmentStateRecordSchema)).map(
        mapAppointmentState,
      ),
    );
  }

  const appointmentAnswer = dentalinkItemSchema(dentalinkAppointmentRecordSchema);

  async function getPatient(patientId: string) {
    const answer = await call({
      method: "GET",
      url: url(DENTALINK_PATHS.patient(patientId)),
      schema: dentalinkItemSchema(dentalinkPatientRecordSchema),
      retry: true,
    });
    return mapPatient(answer.data);
  }

  async function findOrCreatePatient(input: NewDentalinkPatient): Promise<FoundOrCreatedPatient> {
    const found = await findPatient({ rut: input.rut, email: input.email, phone: input.phone });
    if (found) return { patient: found.patient, created: false, matchedBy: found.matchedBy };
    return { patient: await createPatient(input), created: true, matchedBy: null };
  }

  async function listDocuments(patientId: string) {
    return (await listPatientFiles(patientId)).documents;
  }

  async function listXrays(patientId: string) {
    return (await listPatientFiles(patientId)).xrays;
  }

  async function getPatientRecord(patientId: string): Promise<DentalinkPatientRecordLists> {
    const [appointments, payments, treatments, files] = await Promise.all([
      listAppointments(patientId),
      listPayments(patientId),
      listTreatments(patientId),
      listPatientFiles(patientId),
    ]);
    return { appointments, payments, treatments, ...files };
  }

  async function createAppointment(input: NewDentalinkAppointment) {
    const time = normaliseDentalinkTime(input.time);
    if (time === null) throw new DentalinkInputError("createAppointment: time HH:MM expected");
    const date = outgoingDate(input.date, "date");
    if (!optionalText(input.patientId) || !optionalText(input.dentistId)) {
      throw new DentalinkInputError("createAppointment: patientId and dentistId are required");
    }
    if (
      input.durationMinutes !== undefined &&
      (!Number.isInteger(input.durationMinutes) || input.durationMinutes <= 0)
    ) {
      throw new DentalinkInputError("createAppointment: durationMinutes must be a positive integer");
    }
    let branchId = optionalText(input.branchId);
    if (!branchId) {
      const branch = (await listBranches()).find((item) => item.active);
      if (!branch) throw unusable("NO_BRANCH", "dentalink: the clinic has no enabled branch");
      branchId = branch.id;
    }
    let duration = input.durationMinutes;
    if (duration === undefined) {
      const dentist = (await listDentists()).find((item) => item.id === input.dentistId.trim());
      duration = dentist?.intervalMinutes ?? 30;
    }
    const body: DentalinkCreateAppointmentRequest = {
      id_paciente: vendorId(input.patientId),
      id_dentista: vendorId(input.dentistId),
      id_sucursal: vendorId(branchId),
      fecha: date,
      hora_inicio: time,
      duracion: duration,
      ...(input.stateId ? { id_estado: vendorId(input.stateId) } : {}),
      ...(input.chairId ? { id_sillon: vendorId(input.chairId) } : {}),
      ...(optionalText(input.comment) ? { comentario: optionalText(input.comment) } : {}),
    };
    try {
      const answer = await call({
        method: "POST",
        url: url(DENTALINK_PATHS.appointments),
        schema: appointmentAnswer,
        body,
        retry: false,
      });
      return mapAppointment(answer.data);
    } catch (error) {
      // docs/research/dentalink-whatsapp-chile.md §1.1: POST /citas answers 409 when the slot is already taken.
      if (isIntegrationError(error) && error.status === 409) throw withCode(error, "SLOT_TAKEN");
      throw error;
    }
  }

  async function cancelAppointment(
    appointmentId: string,
    cancelOptions: { comment?: string; notifyPatient?: boolean } = {},
  ) {
    const states = await listAppointmentStates();
    const state = cancelledState(states);
    if (!state) {
      throw unusable("NO_CANCEL_STATE", "dentalink: no enabled appointment state cancels", {
        states: states.map((item) => item.name),
      });
    }
    const body: DentalinkUpdateAppointmentRequest = {
      id_estado: vendorId(state.id),
      ...(optionalText(cancelOptions.comment) ? { comentarios: optionalText(cancelOptions.comment) } : {}),
      flag_notificar_anulacion: cancelOptions.notifyPatient ? 1 : 0,
    };
    // Setting a state is idempotent, so the cancel is retried like a read.
    const answer = await call({
      method: "PUT",
      url: url(DENTALINK_PATHS.appointment(appointmentId)),
      schema: appointmentAnswer,
      body,
      retry: true,
    });
    return mapAppointment(answer.data);
  }

  function status(): DentalinkStatus {
    return { mode, circuit: breaker.snapshot() };
  }

  function clearCatalogueCache() {
    cache.clear();
  }

  /**
   * The client's two faces over one breaker, cache and mock memory: the interactive one joins the caller's deadline
   * scope (or opens one per call), the background one never has a deadline.
   */
  function face(background: boolean): DentalinkClient {
    const enter =
      <Args extends unknown[], Result>(method: (...args: Args) => Promise<Result>) =>
      (...args: Args): Promise<Result> => {
        const scope = deadlineScopes.getStore();
        if (!background && scope && !scope.background) return method(...args);
        return deadlineScopes.run(background ? { background: true } : {}, () => method(...args));
      };
    return {
      mode,
      status,
      findPatients: enter(findPatients),
      findPatient: enter(findPatient),
      getPatient: enter(getPatient),
      createPatient: enter(createPatient),
      findOrCreatePatient: enter(findOrCreatePatient),
      listAppointments: enter(listAppointments),
      listPayments: enter(listPayments),
      listTreatments: enter(listTreatments),
      listPatientFiles: enter(listPatientFiles),
      listDocuments: enter(listDocuments),
      listXrays: enter(listXrays),
      getPatientRecord: enter(getPatientRecord),
      listDentists: enter(listDentists),
      listBranches: enter(listBranches),
      listAppointmentStates: enter(listAppointmentStates),
      createAppointment: enter(createAppointment),
      cancelAppointment: enter(cancelAppointment),
      clearCatalogueCache,
      // Declared below: only read once the client is in use.
      forBackground: () => backgroundFace,
    };
  }

  const interactiveFace = face(false);
  const backgroundFace = face(true);
  return interactiveFace;
}
