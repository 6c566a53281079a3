import { getDb, type Database } from "~/db/client.server";
import { outboxOrderingKey } from "~/domain/outbox-order";
import { clinicDate, clinicTime } from "~/domain/clinic-time";
import { chooseDentalinkPatient, type DentalinkPatientFacts } from "~/domain/dentalink-patient-link";
import {
  OUTBOX_MAX_ATTEMPTS,
  PermanentDeliveryError,
  enqueue,
  type OutboxHandler,
} from "~/features/outbox/outbox.server";
import { DentalinkInputError, type DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import type { DentalinkDentist } from "~/integrations/dentalink/dentalink-mapping";
import { isIntegrationError } from "~/integrations/http.server";
import { dentalinkDentistFor } from "./dentalink-dentist-links.server";
import {
  dentalinkClient,
  dentalinkSettings,
  isMockMode,
  type DentalinkSettings,
} from "./dentalink-settings.server";
import type { FailedWriteThroughView } from "./sync-dto";
import {
  DENTALINK_APPOINTMENT_KIND,
  appointmentForWriteThrough,
  failedWriteThroughs,
  hasEarlierPendingWriteThrough,
  patientsBoundToOthers,
  storeDentalinkIds,
  storeDentalinkPatientLink,
} from "./dentalink-writethrough-repository.server";
import { dentistDisplayName } from "~/domain/dentist-name";

/**
 * Portal bookings written through to Dentalink (ADR 023): a booking, reschedule or cancellation in Mis Citas queues
 * one outbox row in its own transaction; the outbox worker applies it at Dentalink. Only in live mode (a real
 * `DENTALINK_API_KEY`): the mock stands for a Dentalink the clinic does not have yet, so nothing is mirrored there.
 */

export { DENTALINK_APPOINTMENT_KIND };

export type WriteThroughAction = "book" | "reschedule" | "cancel";

export interface WriteThroughPayload {
  appointmentId: string;
  action: WriteThroughAction;
  /** The appointment's start and length when the change was made (a book or reschedule creates that one). */
  startsAt: string;
  durationMinutes: number;
  [key: string]: unknown;
}

/**
 * Queues the write-through of one change in the caller's transaction; nothing in mock mode. `occurrence` tells
 * apart the changes of one appointment of the same action (a second reschedule).
 */
export async function queueDentalinkWriteThrough(
  tx: Pick<Database, "insert">,
  change: {
    appointmentId: string;
    action: WriteThroughAction;
    startsAt: Date;
    endsAt: Date;
    occurrence?: string;
  },
  settings: DentalinkSettings = dentalinkSettings(),
) {
  if (isMockMode(settings)) return;
  const payload: WriteThroughPayload = {
    appointmentId: change.appointmentId,
    action: change.action,
    startsAt: change.startsAt.toISOString(),
    durationMinutes: Math.round((change.endsAt.getTime() - change.startsAt.getTime()) / 60_000),
  };
  await enqueue(tx, {
    kind: DENTALINK_APPOINTMENT_KIND,
    idempotencyKey: `dentalink:${change.appointmentId}:${change.action}${change.occurrence ? `:${change.occurrence}` : ""}`,
    payload,
    // An appointment's writes reach Dentalink in order: its creation before its reschedule or cancellation.
    orderingKey: outboxOrderingKey("dentalink-appointment", change.appointmentId),
  });
}

export const WRITE_THROUGH_SLOT_TAKEN =
  "Dentalink rechazó la cita: ese horario ya está ocupado en Dentalink (409). Agéndela a mano en Dentalink.";

/** Turns what can never succeed on a retry into a failure for good; the rest is retried with backoff. */
function permanent(error: unknown): never {
  if (isIntegrationError(error) && error.code === "SLOT_TAKEN") {
    throw new PermanentDeliveryError(WRITE_THROUGH_SLOT_TAKEN, { cause: error });
  }
  if (error instanceof DentalinkInputError) {
    throw new PermanentDeliveryError(`Dentalink no aceptó los datos: ${error.message}`, { cause: error });
  }
  if (
    isIntegrationError(error) &&
    error.status !== null &&
    [400, 401, 403, 404, 422].includes(error.status)
  ) {
    throw new PermanentDeliveryError(`Dentalink respondió ${error.status}: ${error.message}`, {
      cause: error,
    });
  }
  throw error;
}

type Row = NonNullable<Awaited<ReturnType<typeof appointmentForWriteThrough>>>;

/** Only the dentist's own agenda: an unlinked dentist fails here, before anything is changed at Dentalink. */
async function linkedDentist(db: Database, client: DentalinkClient, row: Row) {
  return dentalinkDentistFor(db, await client.listDentists(), {
    id: row.dentistId,
    name: [row.dentistFirstName, row.dentistLastName].filter(Boolean).join(" "),
  });
}

/**
 * The Dentalink patient the account is (ADR 030, `domain/dentalink-patient-link.ts`): its Mi Ficha binding, its
 * stored link, or the one Dentalink patient with its verified e-mail; otherwise a new patient. Never found by the
 * profile's phone or any other unverified field. The choice is stored, so later bookings reuse it.
 */
async function dentalinkPatientOf(db: Database, client: DentalinkClient, row: Row) {
  const facts: DentalinkPatientFacts = {
    boundPatientId: row.boundPatientId,
    linked: row.linked,
    emailVerified: row.patient.emailVerified,
  };
  let choice = chooseDentalinkPatient(facts);
  if (choice.action === "search-email") {
    const found = await client.findPatients({ email: row.patient.email });
    const bound = await patientsBoundToOthers(
      db,
      row.patient.id,
      found.map((patient) => patient.id),
    );
    choice = chooseDentalinkPatient({
      ...facts,
      emailMatches: found.map((patient) => ({
        patientId: patient.id,
        boundToAnotherAccount: bound.has(patient.id),
      })),
    });
  }
  if (choice.action === "use") {
    const patientId = choice.store
      ? await storeDentalinkPatientLink(db, {
          userId: row.patient.id,
          dentalinkPatientId: choice.patientId,
          source: choice.source,
        })
      : choice.patientId;
    return { patientId, created: choice.source === "created" };
  }
  const created = await client.createPatient({
    firstName: row.patient.firstName,
    lastName: row.patient.lastName,
    // A verified e-mail only: an unverified one could later make a stranger's account match this patient.
    email: row.patient.emailVerified ? row.patient.email : undefined,
    phone: row.patient.phone ?? undefined,
  });
  const patientId = await storeDentalinkPatientLink(db, {
    userId: row.patient.id,
    dentalinkPatientId: created.id,
    source: "created",
  });
  return { patientId, created: true };
}

/** Tells the clinic's staff, on the appointment, that its patient may be a duplicate to merge (ADR 030). */
export const CREATED_PATIENT_NOTE =
  "Paciente creado por el portal sin identidad verificada: si ya tenía ficha en Dentalink, fusione ambas.";

/**
 * Creates the appointment at Dentalink in the account's own Dentalink patient and keeps its ids on our row.
 * Idempotent: a live appointment of that patient, dentist, date and time already at Dentalink (a retry after a
 * create whose answer was lost) is reused, not created twice.
 */
async function createAtDentalink(
  db: Database,
  client: DentalinkClient,
  row: Row,
  payload: WriteThroughPayload,
  linked?: DentalinkDentist,
) {
  const startsAt = new Date(payload.startsAt);
  const date = clinicDate(startsAt);
  const time = clinicTime(startsAt);
  const dentist = linked ?? (await linkedDentist(db, client, row));
  const patient = await dentalinkPatientOf(db, client, row);
  const patientId = patient.patientId;
  const existing = (await client.listAppointments(patientId)).find(
    (candidate) =>
      candidate.date === date &&
      candidate.time === time &&
      candidate.dentistId === dentist.id &&
      candidate.statusKind !== "cancelled",
  );
  const created =
    existing ??
    (await client.createAppointment({
      patientId,
      dentistId: dentist.id,
      date,
      time,
      durationMinutes: payload.durationMinutes,
      comment: [
        `Agendada en el portal (${row.treatment ?? "sin tratamiento"}).`,
        patient.created ? CREATED_PATIENT_NOTE : "",
      ]
        .filter(Boolean)
        .join(" "),
    }));
  await storeDentalinkIds(db, row.id, { appointmentId: created.id, patientId });
  return existing ? `dentalink:reused:${created.id}` : `dentalink:created:${created.id}`;
}

const WAITING = "Esperando que se envíe antes la cita original a Dentalink.";

/** The outbox handler of `DENTALINK_APPOINTMENT_KIND`. */
export function createDentalinkWriteThroughHandler(
  options: { client?: () => DentalinkClient; database?: () => Promise<Database> } = {},
): OutboxHandler {
  const client = options.client ?? dentalinkClient;
  const database = options.database ?? getDb;
  return async (raw, delivery) => {
    const payload = raw as WriteThroughPayload;
    const db = await database();
    const row = await appointmentForWriteThrough(db, payload.appointmentId);
    if (!row) return "dentalink:skipped:appointment-gone";
    // Nobody waits on the outbox: its long timeouts and retries, not a person's deadline.
    const dentalink = client().forBackground();
    try {
      if (payload.action === "book") {
        if (row.dentalinkAppointmentId) return `dentalink:already:${row.dentalinkAppointmentId}`;
        return await createAtDentalink(db, dentalink, row, payload);
      }
      if (!row.dentalinkAppointmentId) {
        // Its booking is not at Dentalink yet: wait for it (rows of one appointment apply in order) …
        if (await hasEarlierPendingWriteThrough(db, delivery.id, row.id)) throw new Error(WAITING);
        // … or it never will be (failed for good, or booked before Dentalink was configured).
        if (payload.action === "cancel") return "dentalink:skipped:never-created";
        return await createAtDentalink(db, dentalink, row, payload);
      }
      // Dentalink's API has no reliable move (docs/research/dentalink-whatsapp-chile.md §1): a reschedule cancels the old one and creates the new,
      // in the linked dentist's agenda, checked first so an unlinked dentist leaves the old one in place.
      const dentist = payload.action === "reschedule" ? await linkedDentist(db, dentalink, row) : undefined;
      await dentalink.cancelAppointment(row.dentalinkAppointmentId, {
        comment:
          payload.action === "cancel"
            ? "Cancelada por el paciente en el portal."
            : "Reagendada en el portal.",
      });
      if (payload.action === "cancel") return `dentalink:cancelled:${row.dentalinkAppointmentId}`;
      return await createAtDentalink(db, dentalink, row, payload, dentist);
    } catch (error) {
      if (error instanceof PermanentDeliveryError || (error instanceof Error && error.message === WAITING)) {
        throw error;
      }
      permanent(error);
    }
  };
}

/** Shown for a row still being retried: its technical last error is for logs, the reason is for staff. */
export const WRITE_THROUGH_RETRYING =
  "Dentalink no respondió o falló; el envío se reintentará automáticamente.";

const personName = (first: string | null, last: string | null) =>
  [first, last].filter(Boolean).join(" ") || null;

/** The write-throughs staff must see (failed for good, or waiting for a retry after a failure). */
export async function loadFailedWriteThroughs(db: Database): Promise<FailedWriteThroughView[]> {
  const rows = await failedWriteThroughs(db);
  return rows.map((row) => {
    const payload = row.payload as WriteThroughPayload;
    const failed = row.status === "failed";
    return {
      id: row.id,
      appointmentId: payload.appointmentId,
      action: payload.action,
      startsAt: payload.startsAt,
      reason: failed
        ? (row.lastError ?? "Error desconocido")
        : `${WRITE_THROUGH_RETRYING} Último error: ${row.lastError ?? "desconocido"}`,
      at: row.createdAt.toISOString(),
      state: failed ? "failed" : "retrying",
      attempts: row.attempts,
      maxAttempts: OUTBOX_MAX_ATTEMPTS,
      nextAttemptAt: failed ? null : row.nextAttemptAt.toISOString(),
      patientName: personName(row.patientFirstName, row.patientLastName),
      dentistName: dentistDisplayName({
        firstName: row.dentistFirstName,
        lastName: row.dentistLastName,
        title: row.dentistTitle,
      }),
    };
  });
}
