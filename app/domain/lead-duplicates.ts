import {
  scoreLead,
  type Budget,
  type LeadScore,
  type Treatment,
  type Urgency,
  urgencies,
} from "./lead-scoring";

/**
 * A second request from a person who already has an open lead (ADR 025): how contacts are compared and what the
 * open lead keeps. Pure.
 */

/** Only the digits of a phone: "+56 9 1234 5678" and "+56912345678" are the same number. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, "");
}

/** E-mails compare case-insensitively; blank is no e-mail. */
export function normalizedEmail(email: string | null | undefined): string | null {
  const trimmed = email?.trim().toLowerCase() ?? "";
  return trimmed === "" ? null : trimmed;
}

/** The more pressing of two urgencies ("inmediato" first). */
export function higherUrgency(a: Urgency, b: Urgency): Urgency {
  return urgencies.indexOf(a) <= urgencies.indexOf(b) ? a : b;
}

export interface MergeableLead {
  treatment: Treatment;
  urgency: Urgency;
  budget: Budget;
  phone: string;
  email: string | null;
  message: string;
}

export interface IncomingRequest {
  treatment: Treatment;
  urgency: Urgency;
  budget: Budget;
  email: string | null;
}

/**
 * The open lead after a duplicate arrived: the higher urgency wins; a concrete answer replaces a placeholder (a
 * WhatsApp lead has "evaluacion" and "consultar" until the person fills the form); an e-mail fills a missing one.
 * Nothing the lead had is overwritten otherwise, so the score never drops. The message stays: the new one is in the
 * history.
 */
export function mergeDuplicate(
  existing: MergeableLead,
  incoming: IncomingRequest,
): { answers: MergeableLead; score: LeadScore } {
  const answers: MergeableLead = {
    treatment:
      existing.treatment === "evaluacion" && incoming.treatment !== "evaluacion"
        ? incoming.treatment
        : existing.treatment,
    urgency: higherUrgency(existing.urgency, incoming.urgency),
    budget:
      existing.budget === "consultar" && incoming.budget !== "consultar" ? incoming.budget : existing.budget,
    phone: existing.phone,
    email: existing.email ?? normalizedEmail(incoming.email),
    message: existing.message,
  };
  return { answers, score: scoreLead(answers) };
}
