/**
 * Which Dentalink patient a portal account is (ADR 030). A booking written through to Dentalink
 * lands in that patient's record, so only what the account proved counts: the RUT it bound in Mi Ficha with a
 * one-time code, or its verified e-mail when exactly one Dentalink patient has it. The profile's phone (and any
 * other typed-in field) is never used: anyone can type a stranger's. Once chosen, the link is stored and reused,
 * so editing the profile never changes who the account is at Dentalink.
 */

export const dentalinkPatientLinkSources = ["binding", "email", "created"] as const;
export type DentalinkPatientLinkSource = (typeof dentalinkPatientLinkSources)[number];

export interface DentalinkEmailMatch {
  patientId: string;
  /** Mi Ficha bound this Dentalink patient to another account (a RUT proof beats an e-mail on file). */
  boundToAnotherAccount: boolean;
}

export interface DentalinkPatientFacts {
  /** The Dentalink patient the account bound in Mi Ficha, or null. */
  boundPatientId: string | null;
  /** The link stored by an earlier write-through, or null. */
  linked: { patientId: string; source: DentalinkPatientLinkSource } | null;
  emailVerified: boolean;
  /** The Dentalink patients with the account's e-mail; undefined until searched. */
  emailMatches?: readonly DentalinkEmailMatch[];
}

export type DentalinkPatientChoice =
  /** `store`: the link is new or changed and must be saved. */
  | { action: "use"; patientId: string; source: DentalinkPatientLinkSource; store: boolean }
  /** Search Dentalink by the account's (verified) e-mail, then choose again with `emailMatches`. */
  | { action: "search-email" }
  /** Nothing proves who the account is at Dentalink: a new patient, which staff merge if it is a duplicate. */
  | { action: "create" };

/** The Mi Ficha binding first, then the stored link, then a unique verified e-mail; otherwise a new patient. */
export function chooseDentalinkPatient(facts: DentalinkPatientFacts): DentalinkPatientChoice {
  const { boundPatientId, linked } = facts;
  if (boundPatientId) {
    const changed = linked?.patientId !== boundPatientId || linked.source !== "binding";
    return { action: "use", patientId: boundPatientId, source: "binding", store: changed };
  }
  if (linked) return { action: "use", patientId: linked.patientId, source: linked.source, store: false };
  if (!facts.emailVerified) return { action: "create" };
  if (facts.emailMatches === undefined) return { action: "search-email" };
  const [only, ...others] = facts.emailMatches;
  if (only && others.length === 0 && !only.boundToAnotherAccount) {
    return { action: "use", patientId: only.patientId, source: "email", store: true };
  }
  return { action: "create" };
}
