import type { Database } from "~/db/client.server";
import { formatCLP, formatDate } from "~/domain/format";
import { balanceLeftToPay } from "~/domain/payments";
import { appointmentBadgeStatus, badgeTone, progressPercent, statusLabel } from "~/domain/record-badges";
import { formatRut } from "~/domain/rut";
import { namesOfRecordDentists } from "~/features/dentalink-sync/dentalink-dentist-links.server";
import { balanceTakenOnline } from "~/features/payments/balance-payment-service.server";
import type { DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import type {
  DentalinkAppointment,
  DentalinkDocument,
  DentalinkPatient,
  DentalinkPayment,
  DentalinkTreatment,
} from "~/integrations/dentalink/dentalink-mapping";
import { AppError } from "~/lib/base/errors";
import { dentalinkReader } from "./dentalink-reader.server";
import {
  assertVerified,
  staffEntry,
  patientEntry,
  staffRole,
  type ReadContext,
  type RecordReader,
} from "./record-actor.server";
import { charge, recordRateRules } from "./record-rate-limits.server";
import { findBinding, recordAccess, type NewAccessRow } from "./record-repository.server";
import type {
  ClinicalRecordDto,
  RecordAppointment,
  RecordBalance,
  RecordFile,
  RecordList,
  RecordPayment,
  RecordTreatment,
} from "./record-schema";
import { upstreamMessage } from "./record-upstream-error.server";

/**
 * Reading a clinical record, by its patient (the account's bound record) or by staff (any RUT, with a reason): every
 * read writes its row of the access register before the data leaves the server.
 */

export const STAFF_NOT_FOUND_MESSAGE = "No encontramos un paciente con ese RUT en Dentalink.";

const dateOrDash = (value: string | null) => (value ? formatDate(value) : "—");

/**
 * One appointment of the record. `dentistNames`: our name (with its title) for each Dentalink dentist that is one of
 * our dentists (namesOfRecordDentists); any other keeps the name Dentalink sends.
 */
function appointmentItem(
  item: DentalinkAppointment,
  dentistNames: ReadonlyMap<string, string>,
): RecordAppointment {
  return {
    id: item.id,
    date: formatDate(item.date),
    time: item.time,
    treatment: item.treatment ?? "Consulta",
    doctor: (item.dentistId ? dentistNames.get(item.dentistId) : undefined) ?? item.dentist ?? "—",
    office: item.office,
    status: {
      label: item.status ?? "Sin estado",
      tone: badgeTone(appointmentBadgeStatus(item.statusKind)),
    },
  };
}

function paymentItem(item: DentalinkPayment): RecordPayment {
  return {
    id: item.id,
    date: dateOrDash(item.date),
    amount: formatCLP(item.amountClp),
    concept: item.concept ?? "—",
    method: item.method ?? "—",
    status: { label: statusLabel(item.status), tone: badgeTone(item.status) },
  };
}

function treatmentItem(item: DentalinkTreatment): RecordTreatment {
  return {
    id: item.id,
    name: item.name,
    description: item.description ?? "",
    startDate: dateOrDash(item.startDate),
    endDate: item.endDate ? formatDate(item.endDate) : null,
    progress: progressPercent(item.progress),
    status: { label: statusLabel(item.status), tone: badgeTone(item.status) },
  };
}

function fileItem(item: DentalinkDocument, href: (id: string) => string): RecordFile {
  return {
    id: item.id,
    name: item.name,
    type: item.type ?? "—",
    date: dateOrDash(item.date),
    href: href(item.id),
  };
}

const pesoInput = new Intl.NumberFormat("es-CL", { maximumFractionDigits: 0, useGrouping: true });

/** A budget with something left to pay: Dentalink's balance less what the patient paid online and it does not show. */
function balanceItem(item: DentalinkTreatment, takenOnline: number): RecordBalance {
  const balance = balanceLeftToPay({
    balance: item.balanceClp ?? 0,
    paidNotRegistered: takenOnline,
    inProgress: 0,
  });
  return {
    budgetId: item.id,
    name: item.name,
    balance,
    balanceLabel: formatCLP(balance),
    amountInput: pesoInput.format(balance),
    paidOnlineLabel: takenOnline > 0 ? formatCLP(takenOnline) : null,
  };
}

/** Which budgets still owe something per Dentalink; the rest (paid, or no figure sent) offer nothing to pay. */
async function balancesOf(
  treatments: Settled<DentalinkTreatment[]>,
  takenOnline: (budgetIds: string[]) => Promise<Map<string, number>>,
): Promise<RecordList<RecordBalance>> {
  if (treatments.status === "rejected") return { ok: false, message: upstreamMessage(treatments.reason) };
  const owing = treatments.value.filter((item) => (item.balanceClp ?? 0) > 0);
  const taken = await takenOnline(owing.map((item) => item.id));
  return { ok: true, items: owing.map((item) => balanceItem(item, taken.get(item.id) ?? 0)) };
}

type Settled<T> = PromiseSettledResult<T>;

function listOf<From, To>(result: Settled<From[]>, map: (item: From) => To): RecordList<To> {
  if (result.status === "rejected") return { ok: false, message: upstreamMessage(result.reason) };
  return { ok: true, items: result.value.map(map) };
}

const outcome = (result: Settled<unknown>) => (result.status === "fulfilled" ? "ok" : "error");

/**
 * The patient lookup first, then the four lists in parallel (the wait is the slowest list, not their sum); one
 * register row per read, written before anything is returned. A failed list is its own error; a failed lookup fails
 * the whole record.
 */
async function readRecord(
  db: Database,
  client: DentalinkClient,
  target: { rut: string; patient?: DentalinkPatient; patientId: string },
  entry: (row: Pick<NewAccessRow, "resource" | "outcome" | "resourceId">) => NewAccessRow,
  fileHref: (id: string) => string,
  /** The patient's own read: what was paid online per budget and is not in Dentalink yet (the Pagos tab's balances). */
  takenOnline?: (budgetIds: string[]) => Promise<Map<string, number>>,
): Promise<ClinicalRecordDto> {
  let patient = target.patient;
  if (!patient) {
    try {
      patient = await client.getPatient(target.patientId);
    } catch (error) {
      await recordAccess(db, [entry({ resource: "paciente", outcome: "error", resourceId: null })]);
      throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
    }
  }
  const patientId = patient.id;
  const [appointments, payments, treatments, files] = await Promise.allSettled([
    client.listAppointments(patientId),
    client.listPayments(patientId),
    client.listTreatments(patientId),
    client.listPatientFiles(patientId),
  ]);
  await recordAccess(db, [
    ...(target.patient ? [] : [entry({ resource: "paciente", outcome: "ok", resourceId: null })]),
    entry({ resource: "citas", outcome: outcome(appointments), resourceId: null }),
    entry({ resource: "pagos", outcome: outcome(payments), resourceId: null }),
    entry({ resource: "tratamientos", outcome: outcome(treatments), resourceId: null }),
    entry({ resource: "documentos", outcome: outcome(files), resourceId: null }),
    entry({ resource: "radiografias", outcome: outcome(files), resourceId: null }),
  ]);
  const dentistNames =
    appointments.status === "fulfilled"
      ? await namesOfRecordDentists(
          db,
          appointments.value.flatMap((item) =>
            item.dentistId ? [{ id: item.dentistId, name: item.dentist }] : [],
          ),
        )
      : new Map<string, string>();
  const documents: Settled<DentalinkDocument[]> =
    files.status === "fulfilled" ? { status: "fulfilled", value: files.value.documents } : files;
  const xrays: Settled<DentalinkDocument[]> =
    files.status === "fulfilled" ? { status: "fulfilled", value: files.value.xrays } : files;
  return {
    patient: {
      name: patient.name,
      rut: formatRut(patient.rut ?? target.rut),
      email: patient.email,
      phone: patient.phone,
    },
    appointments: listOf(appointments, (item) => appointmentItem(item, dentistNames)),
    payments: listOf(payments, paymentItem),
    treatments: listOf(treatments, treatmentItem),
    documents: listOf(documents, (item) => fileItem(item, fileHref)),
    xrays: listOf(xrays, (item) => fileItem(item, fileHref)),
    ...(takenOnline ? { balances: await balancesOf(treatments, takenOnline) } : {}),
  };
}

export const PATIENT_FILE_PATH = "/paciente/ficha/archivo";
export const STAFF_FILE_PATH = "/dentista/ficha/archivo";

/** The bound record of this account, or null when the account is not bound. */
export async function patientRecord(
  db: Database,
  reader: RecordReader,
  context: ReadContext,
): Promise<ClinicalRecordDto | null> {
  assertVerified(reader);
  const binding = await findBinding(db, reader.id);
  if (!binding || binding.closedAt !== null) return null;
  const { client } = dentalinkReader();
  return readRecord(
    db,
    client,
    { rut: binding.rut, patientId: binding.dentalinkPatientId },
    (row) =>
      patientEntry(reader, context, {
        ...row,
        rut: binding.rut,
        dentalinkPatientId: binding.dentalinkPatientId,
      }),
    (id) => `${PATIENT_FILE_PATH}/${encodeURIComponent(id)}`,
    (budgetIds) => balanceTakenOnline(db, reader.id, budgetIds, context.now),
  );
}

/** A dentist's or admin's lookup of any RUT, with the reason recorded on every read. */
export async function staffRecord(
  db: Database,
  reader: RecordReader,
  input: { rut: string; reason: string },
  context: ReadContext,
): Promise<ClinicalRecordDto> {
  const role = staffRole(reader);
  const now = context.now ?? new Date();
  await charge(db, [{ key: `record-staff:account:${reader.id}`, rule: recordRateRules.staffLookup }], now);
  const entry = (
    row: Pick<NewAccessRow, "resource" | "outcome" | "resourceId">,
    dentalinkPatientId: string | null,
  ): NewAccessRow =>
    staffEntry(reader, role, context, { rut: input.rut, dentalinkPatientId, reason: input.reason, ...row });
  const { client } = dentalinkReader();
  let patient: DentalinkPatient | undefined;
  try {
    [patient] = await client.findPatients({ rut: input.rut });
  } catch (error) {
    await recordAccess(db, [entry({ resource: "paciente", outcome: "error", resourceId: null }, null)]);
    throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
  }
  await recordAccess(db, [
    entry(
      { resource: "paciente", outcome: patient ? "ok" : "not_found", resourceId: null },
      patient?.id ?? null,
    ),
  ]);
  if (!patient) throw new AppError("NOT_FOUND", STAFF_NOT_FOUND_MESSAGE);
  const found = patient;
  return readRecord(
    db,
    client,
    { rut: input.rut, patient: found, patientId: found.id },
    (row) => entry(row, found.id),
    (id) => `${STAFF_FILE_PATH}/${encodeURIComponent(id)}?rut=${encodeURIComponent(input.rut)}`,
  );
}
