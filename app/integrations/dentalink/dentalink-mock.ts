import {
  DEMO_FILES_BASE,
  DEMO_PORTAL_EMAIL,
  DEMO_RECORD_APPOINTMENTS,
  DEMO_RECORD_FILES,
  DEMO_RECORD_PATIENTS,
  DEMO_RECORD_PAYMENTS,
  DEMO_RECORD_TREATMENTS,
} from "./dentalink-demo-records";
import {
  canonicalRut,
  dentalinkCreateAppointmentRequestSchema,
  dentalinkCreatePatientRequestSchema,
  dentalinkFilterSchema,
  dentalinkUpdateAppointmentRequestSchema,
  normaliseDentalinkDate,
  type DentalinkCondition,
  type DentalinkId,
} from "./dentalink-schemas";

/**
 * Dentalink without Dentalink: a deterministic in-process simulation of API v1 over demo data (DESIGN decision
 * 12). Two users:
 * - **mock mode** (no API key, or the placeholder): `createDentalinkMockFetch` answers the client's requests
 *   like the API, so the same client code, parsing and mapping run; the spec's delays (1.5 s for the patient,
 *   1 s per list; spec 001 §7) are configurable and zero in tests;
 * - the **fake server** (`dentalink-fake.ts`) wraps the same simulator in HTTP.
 *
 * Nothing is random: ids are the next integer after the largest known one, the demo data is fixed. What is
 * created (patients, appointments, cancellations) is kept in a `DentalinkMockStore`; the feature implements it
 * over our database (issue 10: "in our database"), tests use `createMemoryMockStore`. Dentalink does not
 * de-duplicate patients, and neither does this: the client searches before it creates.
 *
 * Node built-ins and the client-safe schemas only, so the fake's runner can load it with Node's type stripping.
 */

// ---- Records as the simulation keeps them (the vendor's field names) ------------------------------------------

export interface MockPatient {
  id: number;
  rut?: string;
  nombre: string;
  apellidos: string;
  email?: string;
  celular?: string;
  telefono?: string;
  /** Written as Dentalink sometimes does, `DD/MM/AAAA` (research §1.1), or `AAAA-MM-DD`. */
  fecha_nacimiento?: string;
  direccion?: string;
  ciudad?: string;
}

export interface MockAppointment {
  id: number;
  id_paciente: number;
  id_dentista: DentalinkId;
  id_sucursal: DentalinkId;
  id_estado: DentalinkId;
  /** AAAA-MM-DD */
  fecha: string;
  /** HH:MM */
  hora_inicio: string;
  duracion: number;
  nombre_tratamiento?: string;
  comentarios?: string;
}

/** Where the mock keeps what is created in it (the feature: our database; tests: memory). */
export interface DentalinkMockStore {
  loadPatients(): Promise<MockPatient[]>;
  /** Inserts, or replaces the patient with the same id. */
  savePatient(patient: MockPatient): Promise<void>;
  loadAppointments(): Promise<MockAppointment[]>;
  /** Inserts, or replaces the appointment with the same id (also a demo appointment, e.g. when cancelled). */
  saveAppointment(appointment: MockAppointment): Promise<void>;
}

export interface MemoryMockStore extends DentalinkMockStore {
  readonly patients: MockPatient[];
  readonly appointments: MockAppointment[];
  clear(): void;
}

function upsert<T extends { id: number }>(list: T[], item: T) {
  const index = list.findIndex((existing) => existing.id === item.id);
  if (index === -1) list.push({ ...item });
  else list[index] = { ...item };
}
export function createMemoryMockStore(): MemoryMockStore {
  const patients: MockPatient[] = [];
  const appointments: MockAppointment[] = [];

  return {
    patients,
    appointments,
    async loadPatients() {
      return patients.map((patient) => ({ ...patient }));
    },
    async savePatient(patient) {
      upsert(patients, patient);
    },
    async loadAppointments() {
      return appointments.map((appointment) => ({ ...appointment }));
    },
    async saveAppointment(appointment) {
      upsert(appointments, appointment);
    },
    clear() {
      patients.length = 0;
      appointments.length = 0;
    },
  };
}

// ---- Demo data (fictional; the portal's demo dentists and patients, DESIGN decision 7) -------------------------

/** spec 001 §3: four dentists `dr-{name}`; named after the portal's demo dentists. */
export const MOCK_DENTISTS = [
  {
    id: "dr-morales",
    nombre: "Andrés",
    apellidos: "Morales",
    especialidad: "Odontología general",
    intervalo: 30,
    habilitado: 1,
    agenda_online: 1,
  },
  {
    id: "dr-vidal",
    nombre: "Fernanda",
    apellidos: "Vidal",
    especialidad: "Ortodoncia",
    intervalo: 30,
    habilitado: 1,
    agenda_online: 1,
  },
  {
    id: "dr-araya",
    nombre: "Tomás",
    apellidos: "Araya",
    especialidad: "Implantología",
    intervalo: 30,
    habilitado: 1,
    agenda_online: 1,
  },
  {
    id: "dr-campos",
    nombre: "Isidora",
    apellidos: "Campos",
    especialidad: "Endodoncia",
    intervalo: 30,
    habilitado: 1,
    agenda_online: 1,
  },
] as const;

export const MOCK_BRANCHES = [
  {
    id: 1,
    nombre: "Sucursal Providencia",
    direccion: "Av. Providencia 1234, oficina 501",
    comuna: "Providencia",
    ciudad: "Santiago",
    telefono: "+56 2 2345 6789",
    habilitada: 1,
  },
  {
    id: 2,
    nombre: "Sucursal Las Condes",
    direccion: "Av. Apoquindo 4500, piso 3",
    comuna: "Las Condes",
    ciudad: "Santiago",
    telefono: "+56 2 2345 6790",
    habilitada: 1,
  },
  {
    id: 3,
    nombre: "Sucursal Ñuñoa",
    direccion: "Av. Irarrázaval 2800",
    comuna: "Ñuñoa",
    ciudad: "Santiago",
    telefono: "+56 2 2345 6791",
    habilitada: 0,
  },
] as const;

/** Ids deliberately neither 1..n nor in order: clinics configure their own (research §1.2). */
export const MOCK_APPOINTMENT_STATES = [
  {
    id: 7,
    nombre: "No confirmado",
    color: "#9e9e9e",
    reservado: 1,
    anulacion: 0,
    uso_interno: 0,
    habilitado: 1,
  },
  {
    id: 3,
    nombre: "Confirmado",
    color: "#4caf50",
    reservado: 1,
    anulacion: 0,
    uso_interno: 0,
    habilitado: 1,
  },
  { id: 12, nombre: "En box", color: "#ffc107", reservado: 1, anulacion: 0, uso_interno: 1, habilitado: 1 },
  { id: 5, nombre: "Atendido", color: "#2196f3", reservado: 1, anulacion: 0, uso_interno: 0, habilitado: 1 },
  { id: 1, nombre: "Anulado", color: "#f44336", reservado: 0, anulacion: 1, uso_interno: 0, habilitado: 1 },
  { id: 9, nombre: "No asiste", color: "#795548", reservado: 1, anulacion: 0, uso_interno: 0, habilitado: 1 },
] as const;

export const MOCK_PATIENTS: readonly MockPatient[] = [
  {
    id: 1001,
    rut: "12345678-5",
    nombre: "Catalina",
    apellidos: "Soto",
    // The RUT portal's demo record (issue 11): only the demo account's e-mail on file, so the code goes by e-mail.
    email: DEMO_PORTAL_EMAIL,
    fecha_nacimiento: "14/03/1988",
    direccion: "Los Leones 1450, depto 42",
    ciudad: "Providencia",
  },
  {
    id: 1002,
    rut: "11111111-1",
    nombre: "Martín",
    apellidos: "Rivas",
    email: "martin.rivas@correo.example",
    celular: "+56988889999",
    fecha_nacimiento: "1975-07-02",
    ciudad: "Las Condes",
  },
  {
    id: 1003,
    rut: "9876543-3",
    nombre: "Valentina",
    apellidos: "Pérez Lagos",
    celular: "+56977770000",
    telefono: "+56222223333",
    fecha_nacimiento: "2001-11-30",
  },
  ...DEMO_RECORD_PATIENTS,
];

export const MOCK_APPOINTMENTS: readonly MockAppointment[] = [
  {
    id: 5001,
    id_paciente: 1001,
    id_dentista: "dr-morales",
    id_sucursal: 1,
    id_estado: 5,
    fecha: "2025-11-12",
    hora_inicio: "10:00",
    duracion: 30,
    nombre_tratamiento: "Limpieza dental",
  },
  {
    id: 5002,
    id_paciente: 1001,
    id_dentista: "dr-vidal",
    id_sucursal: 1,
    id_estado: 3,
    fecha: "2026-09-15",
    hora_inicio: "09:30",
    duracion: 30,
    nombre_tratamiento: "Control de ortodoncia",
  },
  {
    id: 5003,
    id_paciente: 1001,
    id_dentista: "dr-vidal",
    id_sucursal: 2,
    id_estado: 7,
    fecha: "2026-10-20",
    hora_inicio: "11:00",
    duracion: 30,
    nombre_tratamiento: "Control de ortodoncia",
  },
  {
    id: 5004,
    id_paciente: 1002,
    id_dentista: "dr-araya",
    id_sucursal: 2,
    id_estado: 1,
    fecha: "2026-02-03",
    hora_inicio: "15:00",
    duracion: 60,
    nombre_tratamiento: "Evaluación de implantes",
    comentarios: "Anulada por el paciente",
  },
  ...DEMO_RECORD_APPOINTMENTS,
];

const FILES_BASE = DEMO_FILES_BASE;

/** Read-only per-patient lists (nothing in the portal writes them). */
export const MOCK_PAYMENTS = [
  {
    id: 7001,
    id_paciente: 1001,
    fecha_recepcion: "2025-11-12",
    monto_pago: 45000,
    medio_pago: "Tarjeta de débito",
    concepto: "Limpieza dental",
    estado: "pagado",
  },
  {
    id: 7002,
    id_paciente: 1001,
    fecha_recepcion: "2025-06-02",
    monto_pago: 360000,
    medio_pago: "Transferencia",
    concepto: "Ortodoncia: pie",
    estado: "pagado",
  },
  {
    id: 7003,
    id_paciente: 1001,
    fecha_recepcion: "2026-07-05",
    monto_pago: 120000,
    medio_pago: "Tarjeta de crédito",
    concepto: "Ortodoncia: cuota 4",
    estado: "pendiente",
  },
  {
    id: 7004,
    id_paciente: 1002,
    fecha_recepcion: "2025-09-18",
    monto_pago: 35000,
    medio_pago: "Efectivo",
    concepto: "Consulta de evaluación",
    estado: "pagado",
  },
  ...DEMO_RECORD_PAYMENTS,
] as const;

export const MOCK_TREATMENTS = [
  {
    id: 8001,
    id_paciente: 1001,
    nombre: "Ortodoncia con brackets",
    descripcion: "Brackets metálicos, controles mensuales",
    fecha: "2025-06-02",
    finalizado: 0,
    total: 1800000,
    total_realizado: 720000,
    nombre_dentista: "Fernanda Vidal",
    nombre_sucursal: "Sucursal Providencia",
  },
  {
    id: 8002,
    id_paciente: 1001,
    nombre: "Limpieza dental",
    descripcion: "Destartraje y pulido",
    fecha: "2025-11-12",
    finalizado: 1,
    total: 45000,
    total_realizado: 45000,
    nombre_dentista: "Andrés Morales",
    nombre_sucursal: "Sucursal Providencia",
  },
  {
    id: 8003,
    id_paciente: 1002,
    nombre: "Implante unitario",
    descripcion: "Pieza 36",
    fecha: "2025-09-18",
    finalizado: 0,
    total: 950000,
    total_realizado: 0,
    nombre_dentista: "Tomás Araya",
    nombre_sucursal: "Sucursal Las Condes",
  },
  ...DEMO_RECORD_TREATMENTS,
] as const;

export const MOCK_FILES = [
  {
    id: 9001,
    id_paciente: 1001,
    nombre: "Consentimiento informado ortodoncia.pdf",
    tipo: "Documento",
    categoria: "Consentimientos",
    fecha: "02/06/2025",
    url: `${FILES_BASE}/9001.pdf`,
  },
  {
    id: 9002,
    id_paciente: 1001,
    nombre: "Presupuesto ortodoncia.pdf",
    tipo: "Documento",
    categoria: "Presupuestos",
    fecha: "2025-05-28",
    url: `${FILES_BASE}/9002.pdf`,
  },
  {
    id: 9003,
    id_paciente: 1001,
    nombre: "Panorámica inicial.png",
    tipo: "Imagen",
    categoria: "Radiografías",
    fecha: "2025-05-28",
    url: `${FILES_BASE}/9003.png`,
  },
  {
    id: 9004,
    id_paciente: 1001,
    nombre: "Periapical pieza 16.png",
    tipo: "Radiografía",
    categoria: "Radiografías",
    fecha: "2025-11-12",
    url: `${FILES_BASE}/9004.png`,
  },
  {
    id: 9005,
    id_paciente: 1002,
    nombre: "Cone beam maxilar inferior.dcm",
    tipo: "Imagen",
    categoria: "Radiografías",
    fecha: "2025-09-18",
    url: `${FILES_BASE}/9005.dcm`,
  },
  ...DEMO_RECORD_FILES,
] as const;

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
      // Without id_estado Dentalink books the appointment as "No confirmado" (research §1.2).
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
  /** The patient lookup and patient writes (spec 001 §7: 1.5 s). */
  patientMs: number;
  /** Every other call, each list (spec 001 §7: 1 s). */
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
