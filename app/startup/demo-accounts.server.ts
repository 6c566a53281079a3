import { accountSubject, giveConsent } from "~/features/consent/consent-service.server";
import { eq } from "drizzle-orm";
import { grantRole, revokeRole } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import { appointments, treatmentsCatalog, users } from "~/db/schema";
import { clinicOpeningHours } from "~/config/clinic";
import { addDays, clinicDate, clinicInstant, isoWeekday } from "~/domain/clinic-time";
import { demoInProgressVisit, demoSoonVisit, demoStartedVisit } from "~/domain/demo-schedule";
import type { ProfessionalTitle } from "~/domain/dentist-name";
import type { RoleName } from "~/domain/roles";
import type { Auth } from "~/lib/auth/auth.server";

export const DEMO_PASSWORD = "clinica-demo-2026";

interface DemoPerson {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  role: RoleName;
  /** A dentist's title: the women of the demo are "Dra." (issue 24). */
  title?: ProfessionalTitle;
}

export const demoAccounts: readonly DemoPerson[] = [
  {
    email: "paciente@clinica.example",
    firstName: "Catalina",
    lastName: "Soto",
    phone: "+56911112222",
    role: "paciente",
  },
  {
    email: "dentista@clinica.example",
    firstName: "Andrés",
    lastName: "Morales",
    phone: "+56922223333",
    role: "dentista",
    title: "dr",
  },
  {
    email: "asesor@clinica.example",
    firstName: "Javiera",
    lastName: "Pizarro",
    phone: "+56933334444",
    role: "asesor",
  },
  {
    email: "admin@clinica.example",
    firstName: "Rodrigo",
    lastName: "Fuentes",
    phone: "+56944445555",
    role: "admin",
  },
];

/** Creates the demo accounts once (verified e-mail, the shared demo password, one role each). Idempotent. */
export async function seedDemoAccounts(db: Database, auth: Auth): Promise<void> {
  for (const account of demoAccounts) await ensurePerson(db, auth, account, DEMO_PASSWORD);
}

/** Dentists and a second patient without sign-in (no password), so the agenda and booking look like a clinic's. */
const demoPeople: readonly DemoPerson[] = [
  {
    email: "fernanda.vidal@clinica.example",
    firstName: "Fernanda",
    lastName: "Vidal",
    phone: "+56955556666",
    role: "dentista",
    title: "dra",
  },
  {
    email: "tomas.araya@clinica.example",
    firstName: "Tomás",
    lastName: "Araya",
    phone: "+56966667777",
    role: "dentista",
    title: "dr",
  },
  {
    email: "isidora.campos@clinica.example",
    firstName: "Isidora",
    lastName: "Campos",
    phone: "+56977778888",
    role: "dentista",
    title: "dra",
  },
  {
    email: "martin.rivas@correo.example",
    firstName: "Martín",
    lastName: "Rivas",
    phone: "+56988889999",
    role: "paciente",
  },
];

/** The person's id, creating them first (verified e-mail, one role, a password if given) when their e-mail is new. */
async function ensurePerson(
  db: Database,
  auth: Auth,
  person: DemoPerson,
  password?: string,
): Promise<string> {
  const [existing] = await db
    .select({ id: users.id, title: users.professionalTitle })
    .from(users)
    .where(eq(users.email, person.email));
  if (existing) {
    // A demo database from before dentists had titles gets them; a title an admin changed is kept.
    if (person.title && existing.title === null) {
      await db.update(users).set({ professionalTitle: person.title }).where(eq(users.id, existing.id));
    }
    return existing.id;
  }
  const context = await auth.$context;
  const user = await context.internalAdapter.createUser(
    {
      email: person.email,
      name: person.firstName,
      lastName: person.lastName,
      phone: person.phone,
      emailVerified: true,
    },
    { method: "admin" },
  );
  if (password) {
    await context.internalAdapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: await context.password.hash(password),
    });
  }
  if (person.title) {
    await db.update(users).set({ professionalTitle: person.title }).where(eq(users.id, user.id));
  }
  await grantRole(db, user.id, person.role);
  if (person.role !== "paciente") await revokeRole(db, user.id, "paciente");
  return user.id;
}

/** The nearest weekday on or before (direction -1) / on or after (+1) a date. */
function weekday(date: string, direction: 1 | -1): string {
  let day = date;
  while (isoWeekday(day) > 5) day = addDays(day, direction);
  return day;
}

/**
 * The demo patient's appointments, past and upcoming, covering every status badge, plus a few of another
 * patient so the dentist's agenda is not empty. Only when the demo patient has none.
 */
export async function seedDemoAppointments(db: Database, auth: Auth, now = new Date()): Promise<void> {
  const [patient] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, "paciente@clinica.example"));
  const [mainDentist] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, "dentista@clinica.example"));
  if (!patient || !mainDentist) return;
  const ids = new Map<string, string>();
  for (const person of demoPeople) ids.set(person.email, await ensurePerson(db, auth, person));
  const existing = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(eq(appointments.patientId, patient.id))
    .limit(1);
  if (existing.length > 0) return;

  const treatments = new Map(
    (
      await db
        .select({
          id: treatmentsCatalog.id,
          slug: treatmentsCatalog.slug,
          duration: treatmentsCatalog.durationMinutes,
        })
        .from(treatmentsCatalog)
    ).map((row) => [row.slug, row]),
  );
  const today = clinicDate(now);
  const duration = (slug: string) => treatments.get(slug)!.duration;
  // Every demo time inside the clinic's hours (issue 24): the visit in progress, the no-show demo's started visit and
  // the reminder's appointment depend on "now" (`domain/demo-schedule.ts`).
  const inProgress = demoInProgressVisit(now, duration("ortodoncia"), clinicOpeningHours);
  const started = demoStartedVisit(now, duration("consulta"), clinicOpeningHours, {
    ...inProgress,
    durationMinutes: duration("ortodoncia"),
  });
  const soon = demoSoonVisit(now, duration("limpieza"), clinicOpeningHours);
  const tomas = ids.get("tomas.araya@clinica.example")!;
  const fernanda = ids.get("fernanda.vidal@clinica.example")!;
  const martin = ids.get("martin.rivas@correo.example")!;
  const plan: Array<{
    patientId: string;
    dentistId: string;
    slug: string;
    date: string;
    time: string;
    status: string;
    notes?: string;
    fee?: number;
  }> = [
    {
      patientId: patient.id,
      dentistId: mainDentist.id,
      slug: "endodoncia",
      date: weekday(addDays(today, -45), -1),
      time: "10:00",
      status: "completed",
      notes: "Control en 6 meses.",
    },
    {
      patientId: patient.id,
      dentistId: fernanda,
      slug: "estetica",
      date: weekday(addDays(today, -21), -1),
      time: "15:00",
      status: "cancelled",
      notes: "Cancelada por la paciente con anticipación.",
      fee: 0,
    },
    {
      patientId: patient.id,
      dentistId: mainDentist.id,
      slug: "consulta",
      date: weekday(addDays(today, -10), -1),
      time: "09:30",
      status: "no_show",
    },
    {
      patientId: patient.id,
      dentistId: mainDentist.id,
      slug: "limpieza",
      date: weekday(addDays(today, -3), -1),
      time: "11:00",
      status: "completed",
    },
    {
      patientId: patient.id,
      dentistId: mainDentist.id,
      slug: "ortodoncia",
      date: inProgress.date,
      time: inProgress.time,
      status: "in_progress",
    },
    {
      patientId: patient.id,
      dentistId: mainDentist.id,
      slug: "implantes",
      date: weekday(addDays(today, 3), 1),
      time: "10:00",
      status: "scheduled",
      notes: "Traer radiografía panorámica.",
    },
    {
      patientId: patient.id,
      dentistId: fernanda,
      slug: "estetica",
      date: weekday(addDays(today, 8), 1),
      time: "15:00",
      status: "confirmed",
    },
    {
      patientId: martin,
      dentistId: mainDentist.id,
      slug: "limpieza",
      date: weekday(addDays(today, 1), 1),
      time: "09:00",
      status: "confirmed",
    },
    {
      patientId: martin,
      dentistId: mainDentist.id,
      slug: "cirugia",
      date: weekday(addDays(today, 4), 1),
      time: "14:00",
      status: "scheduled",
    },
  ];
  // Reminders: an appointment 8¼ to 24 hours ahead, inside hours, so that its WhatsApp reminder (the 24 h request,
  // sent at once when booked later than that, and not covered by a 2 h message) is queued by the reminder job's first
  // run after a fresh demo start (at 08:00 when started in quiet hours); the demo patient agrees to WhatsApp
  // messages. Another dentist's, so no other demo appointment overlaps.
  plan.push({
    patientId: patient.id,
    dentistId: tomas,
    slug: "limpieza",
    date: soon.date,
    time: soon.time,
    status: "scheduled",
  });
  // No-shows (ADR 042): another patient's visit that has already started, still 'Programada', so the dentist's
  // attendance view offers 'No asistió': today when it can be inside hours, else the previous clinic day.
  plan.push({
    patientId: martin,
    dentistId: mainDentist.id,
    slug: "consulta",
    date: started.date,
    time: started.time,
    status: "scheduled",
  });
  // Through the consent ledger (ADR 037), which keeps users.whatsapp_opt_in_at in step.
  await giveConsent(db, {
    subject: await accountSubject(db, patient.id),
    purpose: "recordatorios_whatsapp",
    channel: "perfil",
    at: now,
  });
  await db.insert(appointments).values(
    plan.map((item) => {
      const treatment = treatments.get(item.slug)!;
      const startsAt = clinicInstant(item.date, item.time);
      return {
        patientId: item.patientId,
        dentistId: item.dentistId,
        treatmentId: treatment.id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + treatment.duration * 60_000),
        status: item.status,
        notes: item.notes ?? null,
        cancellationFee: item.fee ?? null,
        cancelledAt: item.status === "cancelled" ? new Date(startsAt.getTime() - 3 * 86_400_000) : null,
      };
    }),
  );
}
