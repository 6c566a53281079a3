import { and, desc, eq, gt, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { hotStatement } from "~/db/pglite-statements.server";
import {
  appointments,
  auditLog,
  formAssignments,
  formDefinitions,
  formSubmissions,
  treatmentsCatalog,
  users,
} from "~/db/schema";

type Reader = Pick<Database, "select">;

export type DefinitionRow = typeof formDefinitions.$inferSelect;
export type AssignmentRow = typeof formAssignments.$inferSelect;

/** The form definitions in force: the highest version of each slug that is not retired. */
export async function currentDefinitions(db: Reader): Promise<DefinitionRow[]> {
  const rows = await db
    .select()
    .from(formDefinitions)
    .where(isNull(formDefinitions.retiredAt))
    .orderBy(formDefinitions.slug, desc(formDefinitions.version));
  const bySlug = new Map<string, DefinitionRow>();
  for (const row of rows) if (!bySlug.has(row.slug)) bySlug.set(row.slug, row);
  return [...bySlug.values()];
}

/** The appointment a booking just made real, with its treatment's slug. */
export async function appointmentFacts(db: Reader, appointmentId: string) {
  const [row] = await db
    .select({
      patientId: appointments.patientId,
      startsAt: appointments.startsAt,
      treatmentSlug: treatmentsCatalog.slug,
    })
    .from(appointments)
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .where(eq(appointments.id, appointmentId));
  return row;
}

/** Whether the patient attended an appointment before `before` (status completed). */
export async function hasCompletedVisitBefore(db: Reader, patientId: string, before: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.patientId, patientId),
        eq(appointments.status, "completed"),
        lt(appointments.startsAt, before),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Whether the patient has submitted a form of this kind (any version). */
export async function hasSubmittedKind(db: Reader, patientId: string, kind: string): Promise<boolean> {
  const [row] = await db
    .select({ id: formSubmissions.id })
    .from(formSubmissions)
    .innerJoin(formDefinitions, eq(formDefinitions.id, formSubmissions.definitionId))
    .where(and(eq(formSubmissions.patientId, patientId), eq(formDefinitions.kind, kind)))
    .limit(1);
  return Boolean(row);
}

export async function insertAssignments(
  db: Pick<Database, "insert">,
  rows: Array<{ appointmentId: string; patientId: string; formSlug: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(formAssignments)
    .values(rows)
    .onConflictDoNothing({ target: [formAssignments.appointmentId, formAssignments.formSlug] });
}

/** The latest submission of the assignment row in the query (none until it is submitted). */
const latestSubmissionId = sql<string | null>`(
  select s.id from ${formSubmissions} s where s.assignment_id = ${formAssignments.id}
  order by s.submitted_at desc, s.id desc limit 1
)`;

const assignmentListColumns = {
  id: formAssignments.id,
  formSlug: formAssignments.formSlug,
  status: formAssignments.status,
  draftSavedAt: formAssignments.draftSavedAt,
  completedAt: formAssignments.completedAt,
  appointmentId: appointments.id,
  startsAt: appointments.startsAt,
  appointmentStatus: appointments.status,
  treatmentName: treatmentsCatalog.name,
  submissionId: latestSubmissionId,
};

/** The patient's own assignments (never by an id from the URL alone), newest appointment first. */
export async function patientAssignmentList(db: Reader, patientId: string) {
  return db
    .select(assignmentListColumns)
    .from(formAssignments)
    .innerJoin(appointments, eq(appointments.id, formAssignments.appointmentId))
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .where(and(eq(formAssignments.patientId, patientId), ne(formAssignments.status, "anulado")))
    .orderBy(desc(appointments.startsAt), formAssignments.formSlug);
}
export type AssignmentListRow = Awaited<ReturnType<typeof patientAssignmentList>>[number];

/** Pending assignments of upcoming live appointments (what the dashboard counts). */
export async function countPendingAssignments(db: Reader, patientId: string, now: Date): Promise<number> {
  const [row] = await pendingAssignmentCount(db, { patientId, now });
  return row?.count ?? 0;
}

/** A hot statement (ADR 053): the dashboard reads it on every visit. */
const pendingAssignmentCount = hotStatement("pending_form_count", (db) =>
  db
    .select({ count: sql<number>`count(*)::int` })
    .from(formAssignments)
    .innerJoin(appointments, eq(appointments.id, formAssignments.appointmentId))
    .where(
      and(
        eq(formAssignments.patientId, sql.placeholder("patientId")),
        eq(formAssignments.status, "pendiente"),
        gt(appointments.startsAt, sql.placeholder("now")),
        inArray(appointments.status, LIVE_STATUSES),
      ),
    ),
);

/** Appointment statuses for which a form is still wanted (a held booking has no assignment yet). */
export const LIVE_STATUSES = ["scheduled", "confirmed", "in_progress"];

/** One of the patient's own assignments; another patient's id finds nothing. */
export async function patientAssignment(db: Reader, patientId: string, assignmentId: string) {
  const [row] = await db
    .select({ ...assignmentListColumns, draft: formAssignments.draft })
    .from(formAssignments)
    .innerJoin(appointments, eq(appointments.id, formAssignments.appointmentId))
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .where(and(eq(formAssignments.id, assignmentId), eq(formAssignments.patientId, patientId)));
  return row;
}

/** Locks the patient's own assignment row for a submission (two tabs submitting at once take turns). */
export async function lockPatientAssignment(db: Database, patientId: string, assignmentId: string) {
  const [row] = await db
    .select()
    .from(formAssignments)
    .where(and(eq(formAssignments.id, assignmentId), eq(formAssignments.patientId, patientId)))
    .for("update");
  return row;
}

export async function storeDraft(
  db: Pick<Database, "update">,
  patientId: string,
  assignmentId: string,
  draft: Record<string, string>,
  version: number,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(formAssignments)
    .set({ draft, draftVersion: version, draftSavedAt: now })
    .where(and(eq(formAssignments.id, assignmentId), eq(formAssignments.patientId, patientId)))
    .returning({ id: formAssignments.id });
  return rows.length > 0;
}

/** The latest submission of an assignment (the one no later row supersedes). */
export async function latestSubmissionOf(db: Reader, assignmentId: string) {
  const [row] = await db
    .select({
      id: formSubmissions.id,
      answers: formSubmissions.answers,
      submittedAt: formSubmissions.submittedAt,
      definitionId: formSubmissions.definitionId,
    })
    .from(formSubmissions)
    .where(eq(formSubmissions.assignmentId, assignmentId))
    .orderBy(desc(formSubmissions.submittedAt), desc(formSubmissions.id))
    .limit(1);
  return row;
}

export async function insertSubmission(
  db: Pick<Database, "insert">,
  row: typeof formSubmissions.$inferInsert,
): Promise<string> {
  const [inserted] = await db.insert(formSubmissions).values(row).returning({ id: formSubmissions.id });
  if (!inserted) throw new Error("insert returned nothing");
  return inserted.id;
}

/** Marks the assignment completed and, for the health history, the patient's other pending ones of that form. */
export async function completeAssignments(
  db: Pick<Database, "update">,
  patientId: string,
  assignmentId: string,
  alsoSlug: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(formAssignments)
    .set({ status: "completado", completedAt: now, draft: null, draftVersion: null, draftSavedAt: null })
    .where(and(eq(formAssignments.id, assignmentId), eq(formAssignments.patientId, patientId)));
  if (alsoSlug) {
    await db
      .update(formAssignments)
      .set({ status: "completado", completedAt: now, draft: null, draftVersion: null, draftSavedAt: null })
      .where(
        and(
          eq(formAssignments.patientId, patientId),
          eq(formAssignments.formSlug, alsoSlug),
          eq(formAssignments.status, "pendiente"),
        ),
      );
  }
}

/** A submission's PDF, only when it is the patient's own. */
export async function patientSubmissionPdf(db: Reader, patientId: string, submissionId: string) {
  const [row] = await db
    .select({
      pdf: formSubmissions.pdf,
      submittedAt: formSubmissions.submittedAt,
      slug: formDefinitions.slug,
    })
    .from(formSubmissions)
    .innerJoin(formDefinitions, eq(formDefinitions.id, formSubmissions.definitionId))
    .where(and(eq(formSubmissions.id, submissionId), eq(formSubmissions.patientId, patientId)));
  return row;
}

/** A submission with what staff read: the definition, the answers, the patient's name. */
export async function submissionForStaff(db: Reader, submissionId: string) {
  const [row] = await db
    .select({
      id: formSubmissions.id,
      patientId: formSubmissions.patientId,
      appointmentId: formSubmissions.appointmentId,
      answers: formSubmissions.answers,
      submittedAt: formSubmissions.submittedAt,
      supersedesId: formSubmissions.supersedesId,
      hasSignature: sql<boolean>`${formSubmissions.signaturePng} is not null`,
      pdfSha256: formSubmissions.pdfSha256,
      definition: formDefinitions.definition,
      version: formDefinitions.version,
      patientFirstName: users.firstName,
      patientLastName: users.lastName,
    })
    .from(formSubmissions)
    .innerJoin(formDefinitions, eq(formDefinitions.id, formSubmissions.definitionId))
    .innerJoin(users, eq(users.id, formSubmissions.patientId))
    .where(eq(formSubmissions.id, submissionId));
  return row;
}

export async function staffSubmissionPdf(db: Reader, submissionId: string) {
  const [row] = await db
    .select({ pdf: formSubmissions.pdf, patientId: formSubmissions.patientId, slug: formDefinitions.slug })
    .from(formSubmissions)
    .innerJoin(formDefinitions, eq(formDefinitions.id, formSubmissions.definitionId))
    .where(eq(formSubmissions.id, submissionId));
  return row;
}

/** Whether the dentist has (or had) an appointment with the patient: the dentist's reason to read their forms. */
export async function dentistTreatsPatient(
  db: Reader,
  dentistId: string,
  patientId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.dentistId, dentistId), eq(appointments.patientId, patientId)))
    .limit(1);
  return Boolean(row);
}

/** The forms of the dentist's live appointments in a window, with the latest submission of each. */
export async function dentistWindowAssignments(db: Reader, dentistId: string, start: Date, end: Date) {
  return db
    .select({
      assignmentId: formAssignments.id,
      formSlug: formAssignments.formSlug,
      status: formAssignments.status,
      appointmentId: appointments.id,
      startsAt: appointments.startsAt,
      patientFirstName: users.firstName,
      patientLastName: users.lastName,
      submissionId: latestSubmissionId,
    })
    .from(formAssignments)
    .innerJoin(appointments, eq(appointments.id, formAssignments.appointmentId))
    .innerJoin(users, eq(users.id, appointments.patientId))
    .where(
      and(
        eq(appointments.dentistId, dentistId),
        inArray(appointments.status, LIVE_STATUSES),
        ne(formAssignments.status, "anulado"),
        sql`${appointments.startsAt} >= ${start}`,
        lt(appointments.startsAt, end),
      ),
    )
    .orderBy(appointments.startsAt, formAssignments.formSlug);
}

/** The append-only audit row of a staff read of a submitted form (a clinical read, DESIGN §6). */
export async function auditFormRead(
  db: Pick<Database, "insert">,
  row: {
    actorId: string;
    actorRoles: string;
    patientId: string;
    submissionId: string;
    formSlug: string;
    ip: string;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: row.actorId,
    actorRoles: row.actorRoles,
    action: "form.read",
    targetUserId: row.patientId,
    details: { submissionId: row.submissionId, form: row.formSlug },
    ip: row.ip,
  });
}

/** The patient's full name as on file (printed on the PDF). */
export async function patientName(db: Reader, patientId: string): Promise<string | null> {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, patientId));
  return row ? `${row.firstName} ${row.lastName}`.trim() : null;
}
