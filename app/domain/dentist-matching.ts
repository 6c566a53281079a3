/**
 * Which Dentalink dentist is which of ours (ADR 024). A portal booking must reach the agenda of the same dentist
 * at Dentalink, so the link is stored per dentist (`dentalink_dentist_links`), filled once from the names and
 * editable by an admin; this module is the pure part: how two names compare and which pairs are unambiguous.
 */

/** A full name folded for comparison: no accents, lower case, no "Dr."/"Dra." title, no punctuation, one space. */
export function normaliseDentistName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^dra? /, "");
}

export interface NamedDentist {
  id: string;
  name: string;
}

export interface MatchableDentalinkDentist extends NamedDentist {
  active: boolean;
}

/**
 * Pairs each of our dentists with the one active Dentalink dentist of the same normalised full name. A name that
 * two active Dentalink dentists share, or two of ours share, pairs nobody (a wrong agenda is worse than none), and
 * a Dentalink dentist already taken (`taken`) is not offered again.
 */
export function matchDentistsByName(
  ours: readonly NamedDentist[],
  theirs: readonly MatchableDentalinkDentist[],
  taken: ReadonlySet<string> = new Set(),
): Map<string, string> {
  const byName = new Map<string, MatchableDentalinkDentist[]>();
  for (const dentist of theirs) {
    if (!dentist.active) continue;
    const key = normaliseDentistName(dentist.name);
    if (key === "") continue;
    byName.set(key, [...(byName.get(key) ?? []), dentist]);
  }
  const oursByName = new Map<string, number>();
  for (const dentist of ours) {
    const key = normaliseDentistName(dentist.name);
    oursByName.set(key, (oursByName.get(key) ?? 0) + 1);
  }
  const pairs = new Map<string, string>();
  for (const dentist of ours) {
    const key = normaliseDentistName(dentist.name);
    const candidates = byName.get(key);
    if (!candidates || candidates.length !== 1 || oursByName.get(key) !== 1) continue;
    const [candidate] = candidates;
    if (!candidate || taken.has(candidate.id)) continue;
    pairs.set(dentist.id, candidate.id);
  }
  return pairs;
}
