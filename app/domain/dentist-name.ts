/**
 * How the portal names a dentist (issue 24, item 11): "Dr. Andrés Morales", "Dra. Fernanda Vidal". The title is
 * recorded per person (`users.professional_title`, set by an administrator in /admin/usuarios/:id and in the demo),
 * never guessed from the first name: a name does not say how a person wants to be addressed. A dentist without a
 * recorded title is named without one, which is never wrong. Every screen, message, e-mail and calendar file that
 * names a dentist goes through `dentistDisplayName`. Pure; client-safe.
 */

export const professionalTitles = ["dr", "dra"] as const;
export type ProfessionalTitle = (typeof professionalTitles)[number];

/** The abbreviation written before the name. */
export const professionalTitleLabels: Record<ProfessionalTitle, string> = { dr: "Dr.", dra: "Dra." };

/** What the admin's select offers for each title (and for none). */
export const professionalTitleOptions: ReadonlyArray<{ value: ProfessionalTitle | ""; label: string }> = [
  { value: "dr", label: "Dr." },
  { value: "dra", label: "Dra." },
  { value: "", label: "Sin título" },
];

export function isProfessionalTitle(value: unknown): value is ProfessionalTitle {
  return typeof value === "string" && (professionalTitles as readonly string[]).includes(value);
}

export interface DentistNameParts {
  firstName: string | null | undefined;
  lastName: string | null | undefined;
  /** The recorded title; anything else (null, an unknown value) names the dentist without a title. */
  title?: string | null;
}

/** "Dra. Fernanda Vidal"; "Fernanda Vidal" without a recorded title; "" when there is no name at all. */
export function dentistDisplayName({ firstName, lastName, title }: DentistNameParts): string {
  const name = [firstName, lastName]
    .map((part) => (part ?? "").trim())
    .filter(Boolean)
    .join(" ");
  if (!name) return "";
  return isProfessionalTitle(title) ? `${professionalTitleLabels[title]} ${name}` : name;
}
