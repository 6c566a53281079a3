import { antecedentesSalud } from "~/content/forms/antecedentes-salud";
import { consentimientoEstetica } from "~/content/forms/consentimiento-estetica";
import { formDefinitionSchema } from "~/domain/form-rules";
import type { Database } from "./client.server";
import { formDefinitions, treatmentsCatalog } from "./schema";

/** The clinic's treatments. Prices are the demo clinic's list prices in CLP; the clinic edits them. */
export const treatmentSeed = [
  {
    slug: "consulta",
    name: "Consulta y evaluación",
    description: "Revisión completa, diagnóstico y plan de tratamiento.",
    durationMinutes: 30,
    basePrice: 25_000,
  },
  {
    slug: "limpieza",
    name: "Limpieza dental",
    description: "Destartraje, pulido y aplicación de flúor.",
    durationMinutes: 45,
    basePrice: 35_000,
  },
  {
    slug: "implantes",
    name: "Implante dental",
    description: "Instalación de implante de titanio planificada con escáner 3D.",
    durationMinutes: 90,
    basePrice: 850_000,
  },
  {
    slug: "estetica",
    name: "Estética dental",
    description: "Carillas, blanqueamiento y diseño digital de sonrisa.",
    durationMinutes: 60,
    basePrice: 380_000,
  },
  {
    slug: "ortodoncia",
    name: "Control de ortodoncia",
    description: "Control y ajuste de brackets o alineadores.",
    durationMinutes: 30,
    basePrice: 45_000,
  },
  {
    slug: "endodoncia",
    name: "Endodoncia",
    description: "Tratamiento de conducto con anestesia local.",
    durationMinutes: 90,
    basePrice: 220_000,
  },
  {
    slug: "cirugia",
    name: "Cirugía oral",
    description: "Extracciones simples y de terceros molares.",
    durationMinutes: 60,
    basePrice: 120_000,
  },
  {
    slug: "periodoncia",
    name: "Periodoncia",
    description: "Tratamiento de encías y raspado radicular.",
    durationMinutes: 60,
    basePrice: 90_000,
  },
] as const;

/** Reference data every installation needs; idempotent. */
export async function seedReferenceData(db: Database): Promise<void> {
  await db
    .insert(treatmentsCatalog)
    .values([...treatmentSeed])
    .onConflictDoNothing({ target: treatmentsCatalog.slug });
  await seedForms(db);
}

/** The intake and consent forms every installation needs (ADR 041), checked against the format at boot. */
export const formSeed = [antecedentesSalud, consentimientoEstetica].map((form) =>
  formDefinitionSchema.parse(form),
);

/** Idempotent on (slug, version): a changed form is a new version in app/content/forms, never an edit of a row. */
async function seedForms(db: Database): Promise<void> {
  await db
    .insert(formDefinitions)
    .values(
      formSeed.map((form) => ({
        slug: form.slug,
        version: form.version,
        kind: form.kind,
        title: form.title,
        treatmentSlugs: form.treatmentSlugs,
        definition: form as unknown as Record<string, unknown>,
      })),
    )
    .onConflictDoNothing({ target: [formDefinitions.slug, formDefinitions.version] });
}
