import type { ConsentPurpose, PrivacyRestrictionKind } from "./privacy";

/**
 * May the clinic contact a person for a purpose? Pure (ADR 037): given the person's consent-ledger rows and the
 * restrictions in force, the one answer every sending path gets through `mayContact`
 * (`app/features/consent/consent-service.server.ts`).
 *
 * - A consent is in force when the person's latest act about the purpose is a giving: the latest of every row's
 *   `given_at` and `withdrawn_at`. A withdrawal at the same instant as a giving wins (the reading that protects the
 *   person), and a withdrawal through any contact (an e-mail's lead row, the account's row) counts for the person.
 * - 'bloqueo' (art. 8 ter) stops every contact except what the law requires of the clinic (`obligacion_legal`: the
 *   answer to the person's own request, a breach notice).
 * - 'marketing' (art. 8) stops marketing; 'perfilamiento' (art. 8 bis) stops it too (an objection to profiling is an
 *   objection to being targeted).
 * - Reminders of care already booked follow their consent like any other WhatsApp message: a withdrawal stops them at
 *   once, also a reminder already queued (the outbox handler asks again before sending). The appointment itself is
 *   untouched and stays in Mis Citas; no reminder goes out on another channel in its place (none was agreed to).
 */

export interface LedgerEntry {
  purpose: ConsentPurpose;
  givenAt: Date;
  withdrawnAt: Date | null;
}

/** What a message is for: a consent purpose, or a duty of the clinic that needs no consent. */
export type ContactPurpose = ConsentPurpose | "obligacion_legal";

export type ContactDecisionReason =
  | "consentimiento_vigente"
  | "obligacion_legal"
  | "sin_consentimiento"
  | "consentimiento_retirado"
  | "bloqueo"
  | "oposicion_marketing"
  | "oposicion_perfilamiento";

export interface ContactDecision {
  allowed: boolean;
  reason: ContactDecisionReason;
}

export type ConsentState = "vigente" | "retirado" | "sin_consentimiento";

/** Whether the purpose's consent is in force at `now`, withdrawn, or was never given. */
export function consentState(
  entries: readonly LedgerEntry[],
  purpose: ConsentPurpose,
  now: Date = new Date(),
): ConsentState {
  let latestGiven = -Infinity;
  let latestWithdrawn = -Infinity;
  for (const entry of entries) {
    if (entry.purpose !== purpose) continue;
    const given = entry.givenAt.getTime();
    if (given <= now.getTime()) latestGiven = Math.max(latestGiven, given);
    const withdrawn = entry.withdrawnAt?.getTime();
    if (withdrawn !== undefined && withdrawn <= now.getTime()) {
      latestWithdrawn = Math.max(latestWithdrawn, withdrawn);
    }
  }
  if (latestWithdrawn === -Infinity && latestGiven === -Infinity) return "sin_consentimiento";
  return latestWithdrawn >= latestGiven ? "retirado" : "vigente";
}

/** The rule itself: may we contact the person for `purpose`, and why (the reason is recorded when not). */
export function contactDecision(
  purpose: ContactPurpose,
  entries: readonly LedgerEntry[],
  restrictions: readonly PrivacyRestrictionKind[],
  now: Date = new Date(),
): ContactDecision {
  if (purpose === "obligacion_legal") return { allowed: true, reason: "obligacion_legal" };
  if (restrictions.includes("bloqueo")) return { allowed: false, reason: "bloqueo" };
  if (purpose === "marketing") {
    if (restrictions.includes("marketing")) return { allowed: false, reason: "oposicion_marketing" };
    if (restrictions.includes("perfilamiento")) return { allowed: false, reason: "oposicion_perfilamiento" };
  }
  const state = consentState(entries, purpose, now);
  if (state === "vigente") return { allowed: true, reason: "consentimiento_vigente" };
  return { allowed: false, reason: state === "retirado" ? "consentimiento_retirado" : "sin_consentimiento" };
}

/** Whether a lead from a person with these restrictions may be scored (art. 8 bis: not while they object). */
export function mayProfile(restrictions: readonly PrivacyRestrictionKind[]): boolean {
  return !restrictions.includes("perfilamiento") && !restrictions.includes("bloqueo");
}

/** Why a message was not sent, as the message's row records it (`whatsapp_messages.error`). */
export function notSentReason(reason: ContactDecisionReason): string {
  switch (reason) {
    case "consentimiento_retirado":
      return "CONSENT_WITHDRAWN: la persona retiró su consentimiento; no se envió";
    case "sin_consentimiento":
      return "NO_CONSENT: la persona no ha dado su consentimiento; no se envió";
    case "bloqueo":
      return "BLOCKED: los datos de la persona están bloqueados (art. 8 ter); no se envió";
    case "oposicion_marketing":
      return "OBJECTION: la persona se opuso al marketing; no se envió";
    case "oposicion_perfilamiento":
      return "OBJECTION: la persona se opuso al perfilamiento; no se envió";
    default:
      return "";
  }
}

/** The exact text staff see instead of a score when the person objected to profiling. */
export const PROFILING_OBJECTED_LABEL = "Sin puntaje: la persona se opuso al perfilamiento";
