/**
 * 'Actualizado' (ADR 025): the same person asked again (a merged duplicate, `resubmitted_at`) after the clinic last
 * contacted them, so the lead needs a new look. The one rule behind the badge on the panel's cards and the lead page.
 */
export function updatedSinceContact(resubmittedAt: Date | null, lastContactAt: Date | null): boolean {
  if (!resubmittedAt) return false;
  return !lastContactAt || resubmittedAt.getTime() > lastContactAt.getTime();
}
