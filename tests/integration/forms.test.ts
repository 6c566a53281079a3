import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  appointments,
  auditLog,
  formAssignments,
  formDefinitions,
  formSubmissions,
  outbox,
} from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { FORM_MESSAGES } from "~/domain/form-rules";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import { bookAppointment, confirmPaidBooking } from "~/features/appointments/appointment-service.server";
import type { FormFillPage } from "~/features/forms/form-dto";
import { loader as agendaLoader } from "~/routes/_dentist/agenda";
import { loader as staffPdfLoader } from "~/routes/_dentist/form-submission-pdf";
import { loader as submissionLoader } from "~/routes/_dentist/form-submission";
import { loader as dashboardLoader } from "~/routes/_patient/dashboard";
import { action as fillAction, loader as fillLoader } from "~/routes/_patient/form-fill";
import { loader as pdfLoader } from "~/routes/_patient/form-pdf";
import { loader as listLoader } from "~/routes/_patient/forms";
import { DESK_IP, postAs, requestAs } from "../setup/clients";
import { createStaffMember, createTestUser, insertAppointment, type TestUser } from "../setup/factories";
import { pdfText } from "../setup/pdf-text";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { signatureDataUrl } from "../setup/signature-png";

// Intake and consent forms (issue 23, ADR 041): assignment at booking, draft and resume, the signed PDF, the
// immutable submission, and the attacks (another patient's ids, another dentist's patient) written as requests.

afterAll(closeDb);

const INTAKE = "antecedentes-salud";
const CONSENT = "consentimiento-estetica";

const intakeAnswers = {
  hipertension: "no",
  cardiopatia: "no",
  diabetes: "si",
  coagulacion: "no",
  respiratoria: "no",
  infecciosa: "no",
  epilepsia: "no",
  hueso: "no",
  otras_condiciones: "no",
  toma_medicamentos: "si",
  medicamentos_detalle: "Metformina 850 mg cada 12 horas",
  anticoagulantes: "no",
  alergias: "si",
  alergias_detalle: "Penicilina: ronchas en la piel",
  embarazo: "no_aplica",
  lactancia: "no_aplica",
  problemas_anestesia: "no",
  contacto_nombre: "Rosa Pérez",
  contacto_relacion: "Madre",
  contacto_telefono: "+56 9 8765 4321",
  declaracion_veraz: "si",
};

const consentAnswers = () => ({
  procedimiento: "acido_hialuronico",
  informacion_comprendida: "si",
  acepta_procedimiento: "si",
  nombre_completo: "Ana María Muñoz Soto",
  rut: "12.345.678-5",
  firma: signatureDataUrl(),
});

const weekdayAfter = (offset: number) =>
  openDays(addDays(clinicDate(new Date()), offset), 1, DEFAULT_WEEK)[0]!;

async function assignmentsOf(appointmentId: string) {
  const db = await getDb();
  return db.select().from(formAssignments).where(eq(formAssignments.appointmentId, appointmentId));
}

async function slugsOf(appointmentId: string) {
  return (await assignmentsOf(appointmentId)).map((row) => row.formSlug).toSorted();
}

async function assignmentFor(appointmentId: string, slug: string) {
  const row = (await assignmentsOf(appointmentId)).find((item) => item.formSlug === slug);
  if (!row) throw new Error(`no ${slug} for ${appointmentId}`);
  return row;
}

function fillPage(user: TestUser, assignmentId: string) {
  return settle<FormFillPage>(() =>
    fillLoader(routeArgs(requestAs(user.cookie, `/paciente/formularios/${assignmentId}`), { assignmentId })),
  );
}

function post(user: TestUser, assignmentId: string, fields: Record<string, string>) {
  return settle<{ errors: Record<string, string>; savedAt: string | null }>(() =>
    fillAction(
      routeArgs(postAs(user.cookie, `/paciente/formularios/${assignmentId}`, fields), { assignmentId }),
    ),
  );
}

async function submissionsOf(assignmentId: string) {
  const db = await getDb();
  return db
    .select()
    .from(formSubmissions)
    .where(eq(formSubmissions.assignmentId, assignmentId))
    .orderBy(formSubmissions.submittedAt);
}

async function readAs(user: TestUser, submissionId: string) {
  return settle<{ submission: { sections: Array<{ rows: Array<{ label: string; answer: string }> }> } }>(() =>
    submissionLoader(
      routeArgs(requestAs(user.cookie, `/dentista/formularios/${submissionId}`), { submissionId }),
    ),
  );
}

async function reads(submissionId: string) {
  const db = await getDb();
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "form.read"), eq(auditLog.targetUserId, ana.id)))
    .then((rows) => rows.filter((row) => row.details.submissionId === submissionId));
}

let ana: TestUser;
let beto: TestUser;
let dentist: TestUser;
let otherDentist: TestUser;
let admin: TestUser;

beforeAll(async () => {
  [ana, beto, dentist, otherDentist, admin] = await Promise.all([
    createTestUser({ firstName: "Ana", columns: { lastName: "Muñoz" } }),
    createTestUser({ firstName: "Beto" }),
    createStaffMember(["dentista"], { firstName: "Inés" }),
    createStaffMember(["dentista"], { firstName: "Otro" }),
    createStaffMember(["admin"], { firstName: "Admin" }),
  ]);
});

describe("seeding", () => {
  it("holds both forms in every mode, once per slug and version", async () => {
    const db = await getDb();
    const rows = await db.select().from(formDefinitions);
    expect(rows.map((row) => `${row.slug}@${row.version}`).toSorted()).toEqual([
      `${INTAKE}@1`,
      `${CONSENT}@1`,
    ]);
    expect(rows.find((row) => row.slug === CONSENT)?.treatmentSlugs).toEqual(["estetica"]);
  });
});

describe("assignment at booking", () => {
  it("a first visit gets the health history; an aesthetic treatment also gets its consent", async () => {
    const db = await getDb();
    const patient = await createTestUser({ firstName: "Primera" });
    const first = await bookAppointment(db, patient.id, {
      treatmentSlug: "consulta",
      dentistId: dentist.id,
      date: weekdayAfter(8),
      time: "09:00",
    });
    expect(await slugsOf(first.id)).toEqual([INTAKE]);
    const aesthetic = await bookAppointment(db, patient.id, {
      treatmentSlug: "estetica",
      dentistId: dentist.id,
      date: weekdayAfter(9),
      time: "11:00",
    });
    // Still a first visit (nothing attended, nothing submitted): the history is asked for here too.
    expect(await slugsOf(aesthetic.id)).toEqual([INTAKE, CONSENT]);
    // The confirmation e-mail links the forms to fill (issue 23: "link in the confirmation").
    const [mail] = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(eq(outbox.idempotencyKey, `appointment:${aesthetic.id}:booked:email`));
    expect((mail!.payload as { text: string }).text).toMatch(
      /completa tus 2 formularios .*\/paciente\/formularios/,
    );
  });

  it("a patient who attended before, or already sent the history, is not asked again", async () => {
    const db = await getDb();
    const returning = await createTestUser({ firstName: "Vuelve" });
    await insertAppointment({
      patientId: returning.id,
      dentistId: dentist.id,
      startsAt: new Date(Date.now() - 40 * 86_400_000),
      status: "completed",
    });
    const booked = await bookAppointment(db, returning.id, {
      treatmentSlug: "limpieza",
      dentistId: dentist.id,
      date: weekdayAfter(8),
      time: "10:00",
    });
    expect(await slugsOf(booked.id)).toEqual([]);
  });

  it("a booking held for its deposit gets its forms only when it is paid", async () => {
    const db = await getDb();
    const patient = await createTestUser({ firstName: "Deposito" });
    const held = await bookAppointment(
      db,
      patient.id,
      { treatmentSlug: "estetica", dentistId: dentist.id, date: weekdayAfter(10), time: "14:00" },
      new Date(),
      { hold: { expiresAt: new Date(Date.now() + 30 * 60_000) } },
    );
    expect(await slugsOf(held.id)).toEqual([]);
    expect(await db.transaction((tx) => confirmPaidBooking(tx, held.id))).toBe(true);
    expect(await slugsOf(held.id)).toEqual([INTAKE, CONSENT]);
  });
});

describe("the patient fills, saves, resumes and submits", () => {
  let appointmentId: string;
  let secondAppointmentId: string;
  let intakeId: string;
  let consentId: string;

  beforeAll(async () => {
    const db = await getDb();
    const booked = await bookAppointment(db, ana.id, {
      treatmentSlug: "estetica",
      dentistId: dentist.id,
      // Inside the dentist's 7-day agenda window, where the day view lists its forms.
      date: weekdayAfter(2),
      time: "15:00",
    });
    appointmentId = booked.id;
    const second = await bookAppointment(db, ana.id, {
      treatmentSlug: "consulta",
      dentistId: otherDentist.id,
      date: weekdayAfter(11),
      time: "09:00",
    });
    secondAppointmentId = second.id;
    intakeId = (await assignmentFor(appointmentId, INTAKE)).id;
    consentId = (await assignmentFor(appointmentId, CONSENT)).id;
  });

  it("lists the pending forms and counts them on the dashboard", async () => {
    const list = await settle<{ page: { pending: Array<{ assignmentId: string; title: string }> } }>(() =>
      listLoader(routeArgs(requestAs(ana.cookie, "/paciente/formularios"))),
    );
    expect(list.body.page.pending.map((item) => item.assignmentId)).toEqual(
      expect.arrayContaining([intakeId, consentId]),
    );
    const dashboard = (await dashboardLoader(routeArgs(requestAs(ana.cookie, "/paciente")))) as {
      pendingForms: number;
    };
    expect(dashboard.pendingForms).toBe(3);
    const agenda = (await agendaLoader(routeArgs(requestAs(dentist.cookie, "/dentista")))) as {
      forms: {
        missing: number;
        appointments: Array<{ appointmentId: string; forms: Array<{ status: string }> }>;
      };
    };
    const entry = agenda.forms.appointments.find((item) => item.appointmentId === appointmentId);
    expect(entry?.forms.map((form) => form.status)).toEqual(["pendiente", "pendiente"]);
    expect(agenda.forms.missing).toBeGreaterThanOrEqual(2);
  });

  it("'Guardar y continuar después' keeps the valid answers (never the signature) and the form resumes with them", async () => {
    const saved = await post(ana, consentId, {
      intent: "guardar",
      procedimiento: "carillas",
      nombre_completo: "Ana María Muñoz Soto",
      rut: "12.345.678-9",
      firma: signatureDataUrl(),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.savedAt).toBeTruthy();
    const resumed = await fillPage(ana, consentId);
    expect(resumed.body.initial).toEqual({
      procedimiento: "carillas",
      nombre_completo: "Ana María Muñoz Soto",
    });
    expect(resumed.body.draftSavedAt).toBeTruthy();
    expect((await assignmentFor(appointmentId, CONSENT)).status).toBe("pendiente");
  });

  it("refuses an incomplete submission with the same messages as the browser, storing nothing", async () => {
    const { firma: _firma, ...unsigned } = consentAnswers();
    const refused = await post(ana, consentId, { intent: "enviar", ...unsigned, toma: "x" });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.firma).toBe(FORM_MESSAGES.signature);
    expect(await submissionsOf(consentId)).toHaveLength(0);
  });

  it("submits the health history: structured answers, a PDF with them, and every pending copy completed", async () => {
    const sent = await post(ana, intakeId, { intent: "enviar", ...intakeAnswers });
    expect(sent.status).toBe(302);
    expect(sent.location).toBe("/paciente/formularios?enviado=1");
    const [row] = await submissionsOf(intakeId);
    expect(row!.answers).toMatchObject({
      diabetes: "si",
      medicamentos_detalle: "Metformina 850 mg cada 12 horas",
      contacto_telefono: "+56987654321",
    });
    expect(row!.ip).toBe(DESK_IP);
    const text = pdfText(Buffer.from(row!.pdf));
    expect(text).toContain("Antecedentes de salud");
    expect(text).toContain("Metformina 850 mg cada 12 horas");
    expect(text).toContain("Penicilina: ronchas en la piel");
    expect(text).toContain(`Dirección IP de envío: ${DESK_IP}.`);
    expect(text).toContain("versión 1");
    expect((await assignmentFor(appointmentId, INTAKE)).status).toBe("completado");
    // The history is the patient's: the copy asked for at the second booking is complete too.
    expect((await assignmentFor(secondAppointmentId, INTAKE)).status).toBe("completado");
  });

  it("submits the consent with the drawn signature embedded in the PDF, its RUT and name, and its SHA-256", async () => {
    const sent = await post(ana, consentId, { intent: "enviar", ...consentAnswers(), rut: "123456785" });
    expect(sent.status).toBe(302);
    const [row] = await submissionsOf(consentId);
    expect(row!.signaturePng?.length).toBeGreaterThan(200);
    expect(row!.answers).toMatchObject({ rut: "12.345.678-5", firma: "firmado" });
    const pdf = Buffer.from(row!.pdf);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The signature is an image XObject drawn on the page.
    expect(pdf.toString("latin1")).toMatch(/\/Subtype\s*\/Image/);
    const text = pdfText(pdf);
    expect(text).toContain("Consentimiento informado");
    expect(text).toContain("Ana María Muñoz Soto");
    expect(text).toContain("12.345.678-5");
    expect(text).toContain("Ácido hialurónico (relleno)");
    expect(text).toMatch(/Enviado el \d{2}-\d{2}-\d{4}, \d{2}:\d{2}:\d{2} \(hora de Santiago de Chile\)/);
    const { createHash } = await import("node:crypto");
    expect(row!.pdfSha256).toBe(createHash("sha256").update(pdf).digest("hex"));
    expect((await assignmentFor(appointmentId, CONSENT)).status).toBe("completado");
  });

  it("downloads the own PDF", async () => {
    const [row] = await submissionsOf(consentId);
    const response = (await pdfLoader(
      routeArgs(requestAs(ana.cookie, `/paciente/formularios/envios/${row!.id}/pdf`), {
        submissionId: row!.id,
      }),
    )) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(row!.pdf))).toBe(true);
  });

  it("a submission never changes: the database refuses an UPDATE, and a new answer is a new row that supersedes it", async () => {
    const db = await getDb();
    const [first] = await submissionsOf(intakeId);
    const refused = await db
      .update(formSubmissions)
      .set({ answers: { diabetes: "no" } })
      .where(eq(formSubmissions.id, first!.id))
      .then(
        () => null,
        (error: unknown) => error as { cause?: unknown },
      );
    expect(String(refused?.cause ?? refused)).toContain("form_submissions rows are immutable");
    const [unchanged] = await submissionsOf(intakeId);
    expect(unchanged!.answers).toMatchObject({ diabetes: "si" });

    const page = await fillPage(ana, intakeId);
    expect(page.body.completed?.submissionId).toBe(first!.id);
    expect(page.body.initial.medicamentos_detalle).toBe("Metformina 850 mg cada 12 horas");
    const again = await post(ana, intakeId, { intent: "enviar", ...intakeAnswers, alergias: "no" });
    expect(again.status).toBe(302);
    const rows = await submissionsOf(intakeId);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.supersedesId).toBe(first!.id);
    expect(rows[1]!.answers).not.toHaveProperty("alergias_detalle");
  });

  describe("another patient (IDOR)", () => {
    it("cannot open, save, submit or download Ana's forms: 404, and nothing changes", async () => {
      const [submission] = await submissionsOf(consentId);
      expect((await fillPage(beto, consentId)).status).toBe(404);
      expect((await post(beto, intakeId, { intent: "guardar", diabetes: "no" })).status).toBe(404);
      expect((await post(beto, consentId, { intent: "enviar", ...consentAnswers() })).status).toBe(404);
      expect(await submissionsOf(consentId)).toHaveLength(1);
      const pdf = await settle(() =>
        pdfLoader(
          routeArgs(requestAs(beto.cookie, `/paciente/formularios/envios/${submission!.id}/pdf`), {
            submissionId: submission!.id,
          }),
        ),
      );
      expect(pdf.status).toBe(404);
      const own = await settle<{ page: { completed: unknown[]; pending: unknown[] } }>(() =>
        listLoader(routeArgs(requestAs(beto.cookie, "/paciente/formularios"))),
      );
      expect(own.body.page).toEqual({ pending: [], completed: [] });
    });

    it("a malformed id is a 404 too, and anonymous visitors are sent to sign in", async () => {
      expect((await fillPage(beto, "no-es-un-uuid")).status).toBe(404);
      const anonymous = await settle(() =>
        fillLoader(
          routeArgs(requestAs(undefined, `/paciente/formularios/${consentId}`), { assignmentId: consentId }),
        ),
      );
      expect(anonymous.status).toBe(302);
      expect(anonymous.location).toContain("/auth?redirectTo=");
    });
  });

  describe("staff", () => {
    it("the treating dentist sees the missing and sent forms on the day view", async () => {
      const agenda = (await agendaLoader(routeArgs(requestAs(dentist.cookie, "/dentista")))) as {
        forms: {
          appointments: Array<{ appointmentId: string; forms: Array<{ submissionId: string | null }> }>;
        };
      };
      const entry = agenda.forms.appointments.find((item) => item.appointmentId === appointmentId);
      expect(entry?.forms.every((form) => form.submissionId !== null)).toBe(true);
    });

    it("the treating dentist reads the answers, and the read is audited with who and from where", async () => {
      const [submission] = await submissionsOf(consentId);
      const before = (await reads(submission!.id)).length;
      const read = await readAs(dentist, submission!.id);
      expect(read.status).toBe(200);
      const rows = read.body.submission.sections.flatMap((section) => section.rows);
      expect(rows).toContainEqual({ label: "RUT", answer: "12.345.678-5" });
      const audit = await reads(submission!.id);
      expect(audit).toHaveLength(before + 1);
      expect(audit.at(-1)).toMatchObject({ actorId: dentist.id, ip: DESK_IP });
    });

    it("another dentist gets a 404 and leaves no read; a patient gets 403; an admin reads (audited)", async () => {
      const [submission] = await submissionsOf(consentId);
      const before = (await reads(submission!.id)).length;
      // A dentist with no appointment with Ana (otherDentist has one, so may read her forms; this one has none).
      const outsider = await createStaffMember(["dentista"], { firstName: "Ajeno" });
      expect((await readAs(outsider, submission!.id)).status).toBe(404);
      const outsiderPdf = await settle(() =>
        staffPdfLoader(
          routeArgs(requestAs(outsider.cookie, `/dentista/formularios/${submission!.id}/pdf`), {
            submissionId: submission!.id,
          }),
        ),
      );
      expect(outsiderPdf.status).toBe(404);
      expect((await readAs(beto, submission!.id)).status).toBe(403);
      expect((await reads(submission!.id)).length).toBe(before);
      expect((await readAs(admin, submission!.id)).status).toBe(200);
      expect((await reads(submission!.id)).length).toBe(before + 1);
    });
  });

  it("a cancelled appointment's forms are no longer asked for", async () => {
    const db = await getDb();
    const patient = await createTestUser({ firstName: "Cancela" });
    const booked = await bookAppointment(db, patient.id, {
      treatmentSlug: "consulta",
      dentistId: dentist.id,
      date: weekdayAfter(12),
      time: "16:30",
    });
    await db.update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, booked.id));
    const list = await settle<{ page: { pending: unknown[] } }>(() =>
      listLoader(routeArgs(requestAs(patient.cookie, "/paciente/formularios"))),
    );
    expect(list.body.page.pending).toEqual([]);
  });
});
