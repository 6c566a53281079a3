import { getDb, type Database } from "~/db/client.server";
import { DEFAULT_COOL_DOWN_MS } from "~/integrations/circuit-breaker";
import {
  createDentalinkClient,
  DENTALINK_INTERACTIVE_DEADLINE_MS,
  isDentalinkMockKey,
  type DentalinkClientOptions,
  type DentalinkClient,
  type DentalinkStatus,
} from "~/integrations/dentalink/dentalink-client.server";
import { NO_MOCK_DELAYS, SPEC_MOCK_DELAYS } from "~/integrations/dentalink/dentalink-mock";
import type {
  DentalinkMockStore,
  MockAppointment,
  MockPatient,
} from "~/integrations/dentalink/dentalink-mock-store";
import { dentalinkMockDelays, env, type Env } from "~/lib/base/env.server";
import {
  loadMockAppointmentRecords,
  loadMockPatientRecords,
  saveMockAppointmentRecord,
  saveMockPatientRecord,
} from "./dentalink-sync-repository.server";

/** What the Dentalink client is built from (env by default; tests pass their own). */
export interface DentalinkSettings {
  /** Missing or a placeholder: mock mode (DESIGN decision 12). */
  apiKey?: string;
  baseUrl: string;
  timeoutMs: number;
  /** The clinic's Dentalink dashboard, opened by 'Ver en Dentalink' in live mode. */
  dashboardUrl?: string;
  /** Mock mode waits the spec's delays (1.5 s per patient call, 1 s per list). */
  mockDelays: boolean;
}

export function dentalinkSettings(current: Env = env()): DentalinkSettings {
  return {
    apiKey: current.DENTALINK_API_KEY,
    baseUrl: current.DENTALINK_BASE_URL,
    timeoutMs: current.DENTALINK_TIMEOUT_MS,
    dashboardUrl: current.DENTALINK_DASHBOARD_URL,
    mockDelays: dentalinkMockDelays(current),
  };
}

export function isMockMode(settings: DentalinkSettings): boolean {
  return isDentalinkMockKey(settings.apiKey);
}

/** Our read-only staff page listing what the mock holds: 'Ver en Dentalink' in mock mode. */
export const DENTALINK_MOCK_PAGE = "/funnel/dentalink";

/**
 * The mock's memory in our database (ADR 019): what a sync creates in mock mode is still there after a restart,
 * so a second sync of the same patient finds and reuses it.
 */
export function createDatabaseMockStore(database: () => Promise<Database> = getDb): DentalinkMockStore {
  return {
    async loadPatients() {
      return (await loadMockPatientRecords(await database())) as unknown as MockPatient[];
    },
    async savePatient(patient) {
      await saveMockPatientRecord(await database(), patient.id, { ...patient });
    },
    async loadAppointments() {
      return (await loadMockAppointmentRecords(await database())) as unknown as MockAppointment[];
    },
    async saveAppointment(appointment) {
      await saveMockAppointmentRecord(await database(), appointment.id, { ...appointment });
    },
  };
}

export function buildDentalinkClient(
  settings: DentalinkSettings,
  options: {
    store?: DentalinkMockStore;
    /** Tests: the clock, retries and backoff of the client. */
    client?: Omit<DentalinkClientOptions, "apiKey" | "baseUrl" | "timeoutMs" | "mock">;
  } = {},
): DentalinkClient {
  return createDentalinkClient({
    deadlineMs: DENTALINK_INTERACTIVE_DEADLINE_MS,
    ...options.client,
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    mock: {
      store: options.store ?? createDatabaseMockStore(),
      delays: settings.mockDelays ? SPEC_MOCK_DELAYS : NO_MOCK_DELAYS,
    },
  });
}

// One client per process: its catalogue cache and circuit breaker live in the instance (ADR 017). Its default face
// is interactive (one 5 s deadline per request); background work takes `forBackground()`. Kept on
// globalThis so Vite's dev server, which re-evaluates server modules on edits, does not make a second one.
const holder = globalThis as typeof globalThis & { __clinicaDentalink?: DentalinkClient };

export function dentalinkClient(): DentalinkClient {
  holder.__clinicaDentalink ??= buildDentalinkClient(dentalinkSettings());
  return holder.__clinicaDentalink;
}

export type DentalinkStatusState = "connected" | "mock" | "circuit-open";

export interface DentalinkStatusView {
  state: DentalinkStatusState;
  /** Spanish, for the status list. */
  label: string;
  detail: string;
}

/** The status list's line for Dentalink: connected, "modo demostración", or the circuit open. */
export function dentalinkStatusView(status: DentalinkStatus, now = Date.now()): DentalinkStatusView {
  if (status.circuit.state === "open") {
    const openedAt = status.circuit.openedAt?.getTime() ?? now;
    const seconds = Math.max(1, Math.ceil((openedAt + DEFAULT_COOL_DOWN_MS - now) / 1000));
    return {
      state: "circuit-open",
      label: "Sin conexión (circuito abierto)",
      detail: `Dentalink falló varias veces seguidas; se reintentará en unos ${seconds} s.`,
    };
  }
  if (status.mode === "mock") {
    return {
      state: "mock",
      label: "Modo demostración",
      detail:
        "Sin API key: los datos de Dentalink son de demostración y lo creado se guarda en nuestra base.",
    };
  }
  return {
    state: "connected",
    label: "Conectado",
    detail:
      status.circuit.state === "half-open"
        ? "Probando de nuevo la conexión tras una falla."
        : "API v1 de Dentalink configurada.",
  };
}
