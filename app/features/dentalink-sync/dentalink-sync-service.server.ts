import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { clinicDate } from "~/domain/clinic-time";
import { formatChileanPhone } from "~/domain/format";
import { treatments, type Treatment } from "~/domain/lead-scoring";
import type { DentalinkClient, PatientMatch } from "~/integrations/dentalink/dentalink-client.server";
import {
  MOCK_APPOINTMENT_STATES,
  MOCK_APPOINTMENTS,
  MOCK_DENTISTS,
  MOCK_PATIENTS,
} from "~/integrations/dentalink/dentalink-demo-data";
import type { MockAppointment, MockPatient } from "~/integrations/dentalink/dentalink-mock-store";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import {
  DENTALINK_MOCK_PAGE,
  createDatabaseMockStore,
  isMockMode,
  type DentalinkSettings,
} from "./dentalink-settings.server";
import {
  claimSync,
  findLeadForSync,
  findSyncBySubmission,
  finishSync,
  takeOverStaleSync,
  type SyncRow,
} from "./dentalink-sync-repository.server";
import { loadDentistLinks } from "./dentalink-dentist-links.server";
import { requireLeadChange, scheduleAfterSync } from "~/features/crm/lead-pipeline-service.server";
import { loadFailedWriteThroughs } from "./dentalink-writethrough.server";
import type { SyncPrefill, SyncResult, SyncTabData } from "./sync-dto";
import { classifySyncError } from "./sync-errors.server";
import { syncTreatmentForLead, syncTreatmentLabels, SYNC_FAILURE_MESSAGE } from "./sync-options";
import type { SyncActionInput } from "./sync-schema";

/**
 * The Dentalink sync tab (ADR 019): search before create (RUT, then e-mail, then phone; Dentalink does not
 * de-duplicate), the appointment, one stored row per submission (its idempotency key), the audit entry and, from a
 * lead, the lead scheduled — in the transaction that records the outcome.
 */

export interface SyncActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

const matchLabels: Record<PatientMatch, string> = { rut: "RUT", email: "e-mail", phone: "teléfono" };

function isLeadTreatment(value: string): value is Treatment {
  return (treatments as readonly string[]).includes(value);
}

/** A lead's name as the form's first and last name: the first word, then the rest. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const [firstName = "", ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(" ") };
}

async function prefillFromLead(db: Database, leadId: string): Promise<SyncPrefill | null> {
  const lead = await findLeadForSync(db, leadId);
  if (!lead) return null;
  return {
    leadId: lead.id,
    leadName: lead.name,
    ...splitName(lead.name),
    email: lead.email ?? "",
    phone: formatChileanPhone(lead.phone),
    treatmentType: isLeadTreatment(lead.treatment) ? syncTreatmentForLead[lead.treatment] : "",
  };
}

/** The sync tab: the dentists from Dentalink's `/dentistas`, where 'Ver en Dentalink' goes, a lead's prefill. */
export async function loadSyncTab(
  db: Database,
  input: {
    client: DentalinkClient;
    settings: DentalinkSettings;
    leadId: string | null;
    /** Admins may change which Dentalink dentist each of ours books into. */
    canEditLinks?: boolean;
    now?: Date;
  },
): Promise<SyncTabData> {
  const { client, settings } = input;
  const [dentists, prefill, failedWriteThroughs] = await Promise.all([
    client.listDentists().then(
      (list) => ({ list, error: null as string | null }),
      (error: unknown) => {
        const failure = classifySyncError(error);
        logger.warn({ err: failure.detail }, "dentalink: could not list the dentists");
        return {
          list: null,
          error: `No pudimos leer los dentistas de Dentalink: ${failure.errors.join(", ")}.`,
        };
      },
    ),
    input.leadId ? prefillFromLead(db, input.leadId) : Promise.resolve(null),
    loadFailedWriteThroughs(db),
  ]);
  const mock = client.mode === "mock" || isMockMode(settings);
  // The links matter where bookings are written through: live mode (the mock's ids are not the clinic's).
  const dentistLinks = mock ? [] : await loadDentistLinks(db, dentists.list);
  return {
    mode: mock ? "mock" : "live",
    dashboardUrl: mock ? DENTALINK_MOCK_PAGE : (settings.dashboardUrl ?? null),
    dentists: (dentists.list ?? [])
      .filter((dentist) => dentist.active)
      .map((dentist) => ({ id: dentist.id, name: dentist.name, specialty: dentist.specialty })),
    dentistsError: dentists.error,
    today: clinicDate(input.now ?? new Date()),
    submissionId: randomUUID(),
    prefill,
    failedWriteThroughs,
    dentistLinks,
    canEditLinks: input.canEditLinks ?? false,
  };
}

/** What the sync row keeps of the request: no medical history, emergency contact or notes text (only whether given). */
function requestSummary(input: SyncActionInput): Record<string, unknown> {
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    rut: input.rut,
    email: input.email,
    phone: input.phone,
    birthDate: input.birthDate,
    city: input.city || null,
    treatmentType: input.treatmentType,
    appointmentDate: input.appointmentDate,
    appointmentTime: input.appointmentTime,
    dentistId: input.dentistId,
    insuranceProvider: input.insuranceProvider || null,
    hasAddress: input.address !== "",
    hasEmergencyContact: input.emergencyContact !== "",
    hasMedicalHistory: input.medicalHistory !== "",
    hasNotes: input.notes !== "",
  };
}

/** The appointment's comment in Dentalink: the treatment and what the form adds that has no field of its own. */
function appointmentComment(input: SyncActionInput): string {
  const lines = [`Tratamiento: ${syncTreatmentLabels[input.treatmentType]}`];
  if (input.insuranceProvider) lines.push(`Previsión: ${input.insuranceProvider}`);
  if (input.emergencyContact) lines.push(`Contacto de emergencia: ${input.emergencyContact}`);
  if (input.medicalHistory) lines.push(`Antecedentes médicos: ${input.medicalHistory}`);
  if (input.notes) lines.push(`Notas: ${input.notes}`);
  lines.push("Agendado desde el portal de la clínica.");
  return lines.join("\n");
}

function resultOf(row: SyncRow): SyncResult {
  return {
    success: row.outcome === "success",
    syncId: row.id,
    patientId: row.patientId,
    appointmentId: row.appointmentId,
    message: row.message ?? SYNC_FAILURE_MESSAGE,
    errors: row.errors,
    patientReused: row.patientReused === true,
    matchedBy: (row.matchedBy as PatientMatch | null) ?? null,
  };
}

/** How long a double submit waits for the first one's answer, and when a processing row counts as abandoned. */
const WAIT_FOR_FIRST_MS = 90_000;
const STALE_AFTER_MS = 180_000;
const POLL_MS = 100;

/**
 * A double submit (same submission id): the first request's result, once it has one. A row left processing by a
 * process that died is taken over and run again (the search before create finds what it may have created).
 */
async function existingResult(
  db: Database,
  submissionId: string,
  actorId: string,
  waitMs: number,
): Promise<{ result: SyncResult } | { takeOver: string }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await findSyncBySubmission(db, submissionId);
    if (!row) throw new Error(`dentalink sync ${submissionId} vanished`);
    // Someone else's submission id: nothing of theirs is shown.
    if (row.actorId !== actorId) {
      throw new AppError("CONFLICT", "Esta solicitud ya fue usada. Recarga la página e intenta nuevamente.");
    }
    if (row.outcome !== "processing") return { result: resultOf(row) };
    const now = new Date();
    if (await takeOverStaleSync(db, row.id, new Date(now.getTime() - STALE_AFTER_MS), now)) {
      return { takeOver: row.id };
    }
    if (Date.now() >= deadline) {
      throw new AppError(
        "CONFLICT",
        "Esta sincronización sigue en proceso. Espera unos segundos y vuelve a intentarlo.",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Runs one submission of the sync form against Dentalink and records it. Never throws for a Dentalink failure: the
 * result carries the failure's own messages. Throws `AppError` for a lead that does not exist, a dentist
 * Dentalink does not list, or a submission id that is someone else's.
 */
export async function runSync(
  db: Database,
  input: {
    client: DentalinkClient;
    form: SyncActionInput;
    actor: SyncActor;
    now?: () => Date;
    waitMs?: number;
  },
): Promise<SyncResult> {
  const { client, form, actor } = input;
  const now = input.now ?? (() => new Date());
  if (form.leadId && !(await findLeadForSync(db, form.leadId))) {
    throw new AppError("NOT_FOUND", "No encontramos ese lead.");
  }
  // Booking from a lead schedules it: only who may change that lead (ADR 034), checked before Dentalink is called.
  if (form.leadId) await requireLeadChange(db, form.leadId, actor);

  let syncId = await claimSync(db, {
    submissionId: form.submissionId,
    actorId: actor.id,
    leadId: form.leadId,
    mode: client.mode,
    request: requestSummary(form),
    at: now(),
  });
  if (syncId === null) {
    const existing = await existingResult(db, form.submissionId, actor.id, input.waitMs ?? WAIT_FOR_FIRST_MS);
    if ("result" in existing) return existing.result;
    syncId = existing.takeOver;
  }

  const base = { id: syncId, leadId: form.leadId, mode: client.mode, actor } as const;
  let patientId: string | null = null;
  let patientReused: boolean | null = null;
  let matchedBy: PatientMatch | null = null;
  try {
    const dentists = await client.listDentists();
    if (!dentists.some((dentist) => dentist.id === form.dentistId && dentist.active)) {
      const message = "El dentista elegido no está disponible en Dentalink";
      await finishSync(db, {
        ...base,
        outcome: "failed",
        patientId,
        patientReused,
        matchedBy,
        appointmentId: null,
        message: SYNC_FAILURE_MESSAGE,
        errors: [message],
        errorDetail: `UNKNOWN_DENTIST: ${form.dentistId}`.slice(0, 500),
        at: now(),
      });
      return {
        success: false,
        syncId,
        patientId,
        appointmentId: null,
        message: SYNC_FAILURE_MESSAGE,
        errors: [message],
        patientReused: false,
        matchedBy: null,
      };
    }

    const found = await client.findOrCreatePatient({
      firstName: form.firstName,
      lastName: form.lastName,
      rut: form.rut ?? undefined,
      email: form.email,
      phone: form.phone,
      birthDate: form.birthDate,
      address: form.address || undefined,
      city: form.city || undefined,
    });
    patientId = found.patient.id;
    patientReused = !found.created;
    matchedBy = found.matchedBy;

    const appointment = await client.createAppointment({
      patientId,
      dentistId: form.dentistId,
      date: form.appointmentDate,
      time: form.appointmentTime,
      comment: appointmentComment(form),
    });
    const message = found.created
      ? "Paciente y cita creados en Dentalink."
      : `El paciente ya existía en Dentalink (encontrado por ${matchLabels[found.matchedBy ?? "rut"]}): se usó su ficha y se creó la cita.`;
    const finishedAt = now();
    await finishSync(
      db,
      {
        ...base,
        outcome: "success",
        patientId,
        patientReused,
        matchedBy,
        appointmentId: appointment.id,
        message,
        errors: [],
        errorDetail: null,
        at: finishedAt,
      },
      // Through the lead pipeline (ADR 025): scheduled when allowed from where the lead is, with its history row.
      (tx, leadId) => scheduleAfterSync(tx, { leadId, syncId, actor, at: finishedAt }),
    );
    return {
      success: true,
      syncId,
      patientId,
      appointmentId: appointment.id,
      message,
      errors: [],
      patientReused,
      matchedBy,
    };
  } catch (error) {
    const failure = classifySyncError(error);
    logger.warn({ dentalinkSyncId: syncId, err: failure.detail }, "dentalink sync failed");
    await finishSync(db, {
      ...base,
      outcome: "failed",
      patientId,
      patientReused,
      matchedBy,
      appointmentId: null,
      message: failure.message,
      errors: failure.errors,
      errorDetail: failure.detail,
      at: now(),
    });
    return {
      success: false,
      syncId,
      patientId,
      appointmentId: null,
      message: failure.message,
      errors: failure.errors,
      patientReused: patientReused === true,
      matchedBy,
    };
  }
}

// ---- The mock's read-only page ('Ver en Dentalink' in mock mode) ------------------------------------------------

export interface MockPatientView {
  id: string;
  name: string;
  rut: string | null;
  email: string | null;
  phone: string | null;
  /** Created through the sync form (kept in our database), not part of the fixed demo data. */
  created: boolean;
}

export interface MockAppointmentView {
  id: string;
  patientName: string;
  dentistName: string;
  date: string;
  time: string;
  state: string;
  created: boolean;
}

function mergeById<T extends { id: number }>(demo: readonly T[], stored: readonly T[]) {
  const storedIds = new Set(stored.map((item) => item.id));
  return [
    ...demo.filter((item) => !storedIds.has(item.id)).map((item) => ({ item, created: false })),
    ...stored.map((item) => ({ item, created: !demo.some((known) => known.id === item.id) })),
  ];
}

/** What the Dentalink mock holds: its demo patients and appointments and those created by syncs, newest first. */
export async function loadMockOverview(database?: () => Promise<Database>) {
  const store = createDatabaseMockStore(database);
  const [storedPatients, storedAppointments] = await Promise.all([
    store.loadPatients(),
    store.loadAppointments(),
  ]);
  const patients = mergeById<MockPatient>(MOCK_PATIENTS, storedPatients);
  const appointments = mergeById<MockAppointment>(MOCK_APPOINTMENTS, storedAppointments);
  const nameOf = (id: number) => {
    const patient = patients.find((entry) => entry.item.id === id)?.item;
    return patient ? `${patient.nombre} ${patient.apellidos}` : `Paciente ${id}`;
  };
  return {
    patients: patients
      .map<MockPatientView>(({ item, created }) => ({
        id: String(item.id),
        name: `${item.nombre} ${item.apellidos}`,
        rut: item.rut ?? null,
        email: item.email ?? null,
        phone: item.celular ?? item.telefono ?? null,
        created,
      }))
      .toReversed(),
    appointments: appointments
      .map<MockAppointmentView>(({ item, created }) => {
        const dentist = MOCK_DENTISTS.find((entry) => String(entry.id) === String(item.id_dentista));
        const state = MOCK_APPOINTMENT_STATES.find((entry) => String(entry.id) === String(item.id_estado));
        return {
          id: String(item.id),
          patientName: nameOf(item.id_paciente),
          dentistName: dentist ? `${dentist.nombre} ${dentist.apellidos}` : String(item.id_dentista),
          date: item.fecha,
          time: item.hora_inicio,
          state: state?.nombre ?? String(item.id_estado),
          created,
        };
      })
      .toReversed(),
  };
}
