import type { DentalinkId } from "./dentalink-schemas";

/**
 * The Dentalink simulator's records, in the vendor's field names, and where it keeps what is created in it
 * (`dentalink-mock.ts`). Node built-ins and the client-safe schemas only (the fake's runner loads this with Node's
 * type stripping).
 */

export interface MockPatient {
  id: number;
  rut?: string;
  nombre: string;
  apellidos: string;
  email?: string;
  celular?: string;
  telefono?: string;
  /** Written as Dentalink sometimes does, `DD/MM/AAAA` (docs/research/dentalink-whatsapp-chile.md §1.1), or `AAAA-MM-DD`. */
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
