import { inArray } from "drizzle-orm";
import { scoreLead, type Budget, type Treatment, type Urgency } from "~/domain/lead-scoring";
import type { Database } from "./client.server";
import { leads, treatmentDeposits, treatmentsCatalog } from "./schema";

interface DemoLead {
  submissionId: string;
  name: string;
  phone: string;
  email: string | null;
  treatment: Treatment;
  urgency: Urgency;
  budget: Budget;
  message: string;
  source: string;
  status: string;
  hoursAgo: number;
  /** Minutes after creation when an advisor first contacted the lead. */
  contactedAfterMinutes?: number;
}

// Fixed ids make the seed idempotent: running it again inserts nothing.
const demoLeads: DemoLead[] = [
  {
    submissionId: "00000000-0000-4000-8000-000000000001",
    name: "Camila Rojas",
    phone: "+56912345001",
    email: "camila.rojas@correo.example",
    treatment: "implantes",
    urgency: "inmediato",
    budget: "alto",
    message: "Perdí un molar hace un mes y quiero saber si puedo ponerme un implante pronto.",
    source: "web",
    status: "new",
    hoursAgo: 1,
  },
  {
    submissionId: "00000000-0000-4000-8000-000000000002",
    name: "Matías González",
    phone: "+56912345002",
    email: null,
    treatment: "ortodoncia",
    urgency: "1-mes",
    budget: "medio",
    message: "Quiero información sobre alineadores invisibles para mi hija de 16 años.",
    source: "asistente",
    status: "contacted",
    hoursAgo: 20,
    contactedAfterMinutes: 12,
  },
  {
    submissionId: "00000000-0000-4000-8000-000000000003",
    name: "Valentina Muñoz",
    phone: "+56912345003",
    email: "vale.munoz@correo.example",
    treatment: "evaluacion",
    urgency: "evaluando",
    budget: "consultar",
    message: "",
    source: "web",
    status: "new",
    hoursAgo: 50,
  },
];

/** The demo leads' submission ids (the seed is idempotent on them). */
export const demoLeadSubmissionIds = demoLeads.map((lead) => lead.submissionId);

export async function seedDemoData(db: Database, now = new Date()) {
  const rows = demoLeads.map(({ hoursAgo, contactedAfterMinutes, ...lead }) => {
    const createdAt = new Date(now.getTime() - hoursAgo * 3_600_000);
    const lastContactAt =
      contactedAfterMinutes === undefined
        ? null
        : new Date(createdAt.getTime() + contactedAfterMinutes * 60_000);
    return {
      ...lead,
      ...scoreLead(lead),
      consentAt: createdAt,
      createdAt,
      updatedAt: createdAt,
      lastContactAt,
      firstContactAt: lastContactAt,
    };
  });
  await db.insert(leads).values(rows).onConflictDoNothing({ target: leads.submissionId });
  await seedDemoDeposits(db);
}

/**
 * Demo deposits (ADR 036): implants ask 20 % of the price, aesthetic treatments a fixed $30.000, so the demo shows
 * the deposit step. Only missing rules are written: a rule an admin changed in the demo is kept.
 */
export const demoTreatmentDeposits = [
  { slug: "implantes", kind: "percent", value: 20 },
  { slug: "estetica", kind: "fixed", value: 30_000 },
] as const;

export async function seedDemoDeposits(db: Database) {
  const treatments = await db
    .select({ id: treatmentsCatalog.id, slug: treatmentsCatalog.slug })
    .from(treatmentsCatalog)
    .where(
      inArray(
        treatmentsCatalog.slug,
        demoTreatmentDeposits.map((deposit) => deposit.slug),
      ),
    );
  const rows = demoTreatmentDeposits.flatMap((deposit) => {
    const treatment = treatments.find((row) => row.slug === deposit.slug);
    return treatment ? [{ treatmentId: treatment.id, kind: deposit.kind, value: deposit.value }] : [];
  });
  if (rows.length > 0) await db.insert(treatmentDeposits).values(rows).onConflictDoNothing();
}
