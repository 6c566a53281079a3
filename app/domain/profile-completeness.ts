/** The optional contact data the clinic needs; the dashboard shows how much of it a patient has filled in. */
export const PROFILE_COMPLETENESS_FIELDS = [
  { key: "phone", label: "Teléfono" },
  { key: "address", label: "Dirección" },
  { key: "emergencyContact", label: "Contacto de emergencia" },
  { key: "emergencyPhone", label: "Teléfono de emergencia" },
] as const;

export type CompletenessKey = (typeof PROFILE_COMPLETENESS_FIELDS)[number]["key"];

export interface ProfileCompleteness {
  /** 0, 25, 50, 75 or 100. */
  percent: number;
  /** Labels of the fields still empty, in form order. */
  missing: string[];
}

/** Share of phone, address, emergency contact name and emergency phone that are filled in. Pure. */
export function profileCompleteness(
  profile: Partial<Record<CompletenessKey, string | null | undefined>>,
): ProfileCompleteness {
  const missing = PROFILE_COMPLETENESS_FIELDS.filter(({ key }) => !profile[key]?.trim()).map(
    ({ label }) => label,
  );
  const filled = PROFILE_COMPLETENESS_FIELDS.length - missing.length;
  return { percent: Math.round((filled / PROFILE_COMPLETENESS_FIELDS.length) * 100), missing };
}
