import type { Database } from "~/db/client.server";
import { treatmentNameOrFallback } from "~/domain/appointment-status";
import { clinicDate, clinicTime } from "~/domain/clinic-time";
import {
  allQuestions,
  answerErrors,
  answersSchema,
  answerText,
  draftAnswers,
  formDefinitionSchema,
  signaturePngBytes,
  visibleQuestionIds,
  type FormAnswers,
  type FormDefinition,
} from "~/domain/form-rules";
import type { FormAssignmentStatus } from "~/domain/forms";
import { formatClinicDateTime, formatDateWithWeekday, formatDayHeading } from "~/domain/format";
import { ADMIN_ROLES, CLINICAL_READER_ROLES } from "~/domain/roles";
import { clinicFacts } from "~/lib/base/env.server";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import type {
  DentistFormsOverview,
  FormFillPage,
  FormSubmitResult,
  PatientFormItem,
  PatientFormsPage,
  SubmissionViewDto,
} from "./form-dto";
import { formPdfFileName, renderFormPdf, sha256Hex } from "./form-pdf.server";
import {
  appointmentFacts,
  auditFormRead,
  completeAssignments,
  countPendingAssignments,
  currentDefinitions,
  dentistTreatsPatient,
  dentistWindowAssignments,
  hasCompletedVisitBefore,
  hasSubmittedKind,
  insertAssignments,
  insertSubmission,
  latestSubmissionOf,
  lockPatientAssignment,
  patientAssignment,
  patientAssignmentList,
  patientName,
  patientSubmissionPdf,
  staffSubmissionPdf,
  storeDraft,
  submissionForStaff,
  type AssignmentListRow,
  type DefinitionRow,
} from "./form-repository.server";

/**
 * Intake and consent forms (issue 23, ADR 041): which forms a booking needs, the patient's pages (list, fill, save
 * a draft, submit, download), and the staff's reading of the answers, each read audited.
 */

const NOT_FOUND = "No encontramos ese formulario.";

function definitionOf(row: DefinitionRow): FormDefinition {
  return formDefinitionSchema.parse(row.definition);
}

/**
 * The first visit, for the health history: the patient has no earlier completed appointment and no health history
 * submitted (any version). A patient who filled it at another booking is not asked again.
 */
async function isFirstVisit(db: Database, patientId: string, startsAt: Date): Promise<boolean> {
  if (await hasCompletedVisitBefore(db, patientId, startsAt)) return false;
  return !(await hasSubmittedKind(db, patientId, "antecedentes"));
}

/**
 * Creates the forms a booking that just became real needs (called by the appointment service inside the booking's
 * transaction, before the confirmation is queued, so the confirmation can link them): the health history on a first
 * visit, and every consent form whose treatments include the appointment's. Idempotent per (appointment, form).
 */
export async function assignFormsForAppointment(
  tx: Database,
  booking: { appointmentId: string; patientId: string },
): Promise<string[]> {
  const facts = await appointmentFacts(tx, booking.appointmentId);
  if (!facts) return [];
  const definitions = await currentDefinitions(tx);
  const slugs: string[] = [];
  for (const definition of definitions) {
    if (definition.kind === "consentimiento") {
      if (facts.treatmentSlug && definition.treatmentSlugs.includes(facts.treatmentSlug))
        slugs.push(definition.slug);
    } else if (definition.kind === "antecedentes") {
      if (await isFirstVisit(tx, booking.patientId, facts.startsAt)) slugs.push(definition.slug);
    }
  }
  await insertAssignments(
    tx,
    slugs.map((formSlug) => ({
      appointmentId: booking.appointmentId,
      patientId: booking.patientId,
      formSlug,
    })),
  );
  return slugs;
}

function appointmentDto(row: { startsAt: Date; treatmentName: string | null }) {
  return {
    date: formatDateWithWeekday(clinicDate(row.startsAt)),
    time: clinicTime(row.startsAt),
    treatment: treatmentNameOrFallback(row.treatmentName),
  };
}

function titleOf(definitions: Map<string, DefinitionRow>, slug: string) {
  return definitions.get(slug)?.title ?? "Formulario";
}

const LIVE = new Set(["scheduled", "confirmed", "in_progress"]);

function itemOf(row: AssignmentListRow, definitions: Map<string, DefinitionRow>): PatientFormItem {
  return {
    assignmentId: row.id,
    title: titleOf(definitions, row.formSlug),
    status: row.status as FormAssignmentStatus,
    appointment: appointmentDto(row),
    draftSaved: row.draftSavedAt !== null,
    submissionId: row.submissionId,
    completedAt: row.completedAt ? formatClinicDateTime(row.completedAt) : null,
  };
}

/** /paciente/formularios: pending forms of upcoming live appointments, and every completed one. */
export async function patientFormsPage(
  db: Database,
  patientId: string,
  now = new Date(),
): Promise<PatientFormsPage> {
  const [rows, definitions] = await Promise.all([
    patientAssignmentList(db, patientId),
    currentDefinitions(db),
  ]);
  const bySlug = new Map(definitions.map((row) => [row.slug, row]));
  const pending = rows
    .filter(
      (row) =>
        row.status === "pendiente" &&
        LIVE.has(row.appointmentStatus) &&
        row.startsAt.getTime() > now.getTime(),
    )
    .toReversed()
    .map((row) => itemOf(row, bySlug));
  const completed = rows.filter((row) => row.status === "completado").map((row) => itemOf(row, bySlug));
  return { pending, completed };
}

/** How many forms the patient still has to fill before upcoming appointments (the dashboard's notice). */
export function pendingFormsCount(db: Database, patientId: string, now = new Date()): Promise<number> {
  return countPendingAssignments(db, patientId, now);
}

async function currentDefinitionFor(db: Database, slug: string): Promise<DefinitionRow> {
  const row = (await currentDefinitions(db)).find((candidate) => candidate.slug === slug);
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return row;
}

async function ownAssignment(db: Database, patientId: string, assignmentId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(assignmentId)) throw new AppError("NOT_FOUND", NOT_FOUND);
  const row = await patientAssignment(db, patientId, assignmentId);
  if (!row || row.status === "anulado") throw new AppError("NOT_FOUND", NOT_FOUND);
  return row;
}

function withoutSignatures(definition: FormDefinition, answers: Record<string, unknown>): FormAnswers {
  const signatures = new Set(
    allQuestions(definition)
      .filter((q) => q.type === "signature")
      .map((q) => q.id),
  );
  const kept: FormAnswers = {};
  for (const [key, value] of Object.entries(answers)) {
    if (typeof value === "string" && !signatures.has(key)) kept[key] = value;
  }
  return kept;
}

/** The fill page of one of the patient's own assignments: the current version, the draft or the last answers. */
export async function formFillPage(
  db: Database,
  patientId: string,
  assignmentId: string,
): Promise<FormFillPage> {
  const row = await ownAssignment(db, patientId, assignmentId);
  const definitionRow = await currentDefinitionFor(db, row.formSlug);
  const definition = definitionOf(definitionRow);
  const latest = row.status === "completado" ? await latestSubmissionOf(db, row.id) : undefined;
  const initial = row.draft
    ? draftAnswers(definition, row.draft)
    : latest
      ? withoutSignatures(definition, latest.answers)
      : {};
  return {
    assignmentId: row.id,
    definition,
    initial,
    appointment: appointmentDto(row),
    draftSavedAt: row.draftSavedAt ? formatClinicDateTime(row.draftSavedAt) : null,
    completed: latest ? { submissionId: latest.id, when: formatClinicDateTime(latest.submittedAt) } : null,
  };
}

/** 'Guardar y continuar después': the valid answers so far, no signature; the form stays pending. */
export async function saveFormDraft(
  db: Database,
  patientId: string,
  assignmentId: string,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<{ savedAt: string }> {
  const row = await ownAssignment(db, patientId, assignmentId);
  const definitionRow = await currentDefinitionFor(db, row.formSlug);
  const draft = draftAnswers(definitionOf(definitionRow), input);
  if (!(await storeDraft(db, patientId, row.id, draft, definitionRow.version, now))) {
    throw new AppError("NOT_FOUND", NOT_FOUND);
  }
  return { savedAt: formatClinicDateTime(now) };
}

const INVALID_ANSWERS = "Revisa las respuestas marcadas antes de enviar.";

/**
 * Submits one of the patient's own forms: validated with the same schema as the browser, drawn into a PDF with the
 * answers, signature, time, IP and version, stored immutable with its SHA-256, and the assignment completed. A
 * completed form submitted again is a new row that supersedes the previous one (the old one is kept).
 */
export async function submitForm(
  db: Database,
  patientId: string,
  assignmentId: string,
  input: Record<string, unknown>,
  client: { ip: string; userAgent: string | null },
  now = new Date(),
): Promise<FormSubmitResult> {
  const row = await ownAssignment(db, patientId, assignmentId);
  const definitionRow = await currentDefinitionFor(db, row.formSlug);
  const definition = definitionOf(definitionRow);
  const parsed = answersSchema(definition).safeParse(input);
  if (!parsed.success) return { ok: false, errors: answerErrors(parsed.error), message: INVALID_ANSWERS };
  const signatureQuestion = allQuestions(definition).find((q) => q.type === "signature");
  const signatureAnswer = signatureQuestion ? parsed.data[signatureQuestion.id] : undefined;
  const signaturePng = signatureAnswer ? signaturePngBytes(signatureAnswer) : null;
  // The PNG is kept in its own column and drawn in the PDF; the answers keep a marker, not 300 KB of base64.
  const answers: FormAnswers = { ...parsed.data };
  if (signatureQuestion && signatureAnswer) answers[signatureQuestion.id] = "firmado";
  const name = (await patientName(db, patientId)) ?? "";

  const submissionId = await db.transaction(async (tx) => {
    const locked = await lockPatientAssignment(tx, patientId, row.id);
    if (!locked || locked.status === "anulado") throw new AppError("NOT_FOUND", NOT_FOUND);
    const previous = await latestSubmissionOf(tx, row.id);
    const pdf = await renderFormPdf({
      definition,
      answers,
      signaturePng,
      patientName: name,
      clinicName: clinicFacts().name,
      submittedAt: now,
      ip: client.ip,
      supersedesId: previous?.id ?? null,
    });
    const id = await insertSubmission(tx, {
      assignmentId: row.id,
      appointmentId: row.appointmentId,
      patientId,
      definitionId: definitionRow.id,
      answers,
      signaturePng,
      pdf,
      pdfSha256: sha256Hex(pdf),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      supersedesId: previous?.id ?? null,
      submittedAt: now,
    });
    // The health history is the patient's, not the appointment's: it completes their other pending copies too.
    await completeAssignments(
      tx,
      patientId,
      row.id,
      definition.kind === "antecedentes" ? row.formSlug : null,
      now,
    );
    return id;
  });
  logger.info({ submissionId, form: row.formSlug }, "form submitted");
  return { ok: true, submissionId };
}

/** The PDF of one of the patient's own submissions; another patient's id is a 404. */
export async function patientFormPdf(db: Database, patientId: string, submissionId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(submissionId)) throw new AppError("NOT_FOUND", NOT_FOUND);
  const row = await patientSubmissionPdf(db, patientId, submissionId);
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return { pdf: row.pdf, fileName: formPdfFileName(row.slug, row.submittedAt) };
}

/** The dentist's day view: the forms of their live appointments in the agenda's window, missing ones first. */
export async function dentistFormsOverview(
  db: Database,
  dentistId: string,
  window: { start: Date; end: Date },
): Promise<DentistFormsOverview> {
  const [rows, definitions] = await Promise.all([
    dentistWindowAssignments(db, dentistId, window.start, window.end),
    currentDefinitions(db),
  ]);
  const bySlug = new Map(definitions.map((row) => [row.slug, row]));
  const byAppointment = new Map<string, DentistFormsOverview["appointments"][number]>();
  let missing = 0;
  for (const row of rows) {
    let entry = byAppointment.get(row.appointmentId);
    if (!entry) {
      entry = {
        appointmentId: row.appointmentId,
        day: formatDayHeading(clinicDate(row.startsAt)),
        time: clinicTime(row.startsAt),
        patientName: `${row.patientFirstName} ${row.patientLastName}`.trim(),
        forms: [],
      };
      byAppointment.set(row.appointmentId, entry);
    }
    if (row.status === "pendiente") missing += 1;
    entry.forms.push({
      title: titleOf(bySlug, row.formSlug),
      status: row.status as FormAssignmentStatus,
      submissionId: row.submissionId,
    });
  }
  return { appointments: [...byAppointment.values()], missing };
}

export interface StaffReader {
  id: string;
  roles: readonly string[];
}

/**
 * Whether this staff member may read the patient's forms: admins always, a dentist only for a patient who has an
 * appointment with them. Anyone else, or another dentist's patient, answers 404 (the id's existence stays hidden).
 */
async function assertMayRead(db: Database, reader: StaffReader, patientId: string) {
  const roles = new Set(reader.roles);
  if (!CLINICAL_READER_ROLES.some((role) => roles.has(role))) throw new AppError("NOT_FOUND", NOT_FOUND);
  if (ADMIN_ROLES.some((role) => roles.has(role))) return;
  if (!(await dentistTreatsPatient(db, reader.id, patientId))) throw new AppError("NOT_FOUND", NOT_FOUND);
}

/** A submission's answers for a dentist or an admin: every read is written to the audit log first. */
export async function readSubmissionAsStaff(
  db: Database,
  reader: StaffReader,
  submissionId: string,
  ip: string,
): Promise<SubmissionViewDto> {
  if (!/^[0-9a-f-]{36}$/i.test(submissionId)) throw new AppError("NOT_FOUND", NOT_FOUND);
  const row = await submissionForStaff(db, submissionId);
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  await assertMayRead(db, reader, row.patientId);
  const definition = definitionOf({ definition: row.definition } as DefinitionRow);
  await auditFormRead(db, {
    actorId: reader.id,
    actorRoles: reader.roles.join(","),
    patientId: row.patientId,
    submissionId: row.id,
    formSlug: definition.slug,
    ip,
  });
  const answers = row.answers as FormAnswers;
  const visible = visibleQuestionIds(definition, answers);
  return {
    id: row.id,
    title: definition.title,
    version: row.version,
    patientName: `${row.patientFirstName} ${row.patientLastName}`.trim(),
    submittedAt: formatClinicDateTime(row.submittedAt),
    supersedes: row.supersedesId !== null,
    hasSignature: row.hasSignature,
    pdfSha256: row.pdfSha256,
    sections: definition.sections
      .map((section) => ({
        title: section.title,
        rows: section.questions
          .filter((question) => visible.has(question.id) && question.type !== "signature")
          .map((question) => ({ label: question.label, answer: answerText(question, answers[question.id]) })),
      }))
      .filter((section) => section.rows.length > 0),
  };
}

/** The PDF of a submission for a dentist or an admin, with the same rule and the same audit row as a read. */
export async function staffFormPdf(db: Database, reader: StaffReader, submissionId: string, ip: string) {
  if (!/^[0-9a-f-]{36}$/i.test(submissionId)) throw new AppError("NOT_FOUND", NOT_FOUND);
  const row = await staffSubmissionPdf(db, submissionId);
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  await assertMayRead(db, reader, row.patientId);
  await auditFormRead(db, {
    actorId: reader.id,
    actorRoles: reader.roles.join(","),
    patientId: row.patientId,
    submissionId,
    formSlug: row.slug,
    ip,
  });
  return { pdf: row.pdf, fileName: `${row.slug}.pdf` };
}
