import type { ActionResult } from "~/lib/base/action-result";

/** What the sync tab's loader and action send to the page (client-safe types). */

export type DentalinkModeLabel = "live" | "mock";

/** What a sync did (ADR 019), plus whether the patient was reused and how it was found. */
export interface SyncResult {
  success: boolean;
  syncId: string;
  patientId: string | null;
  appointmentId: string | null;
  message: string;
  errors: string[];
  /** True when an existing Dentalink patient was reused (found by RUT, e-mail or phone). */
  patientReused: boolean;
  matchedBy: "rut" | "email" | "phone" | null;
}

export type SyncActionData = ActionResult<{ result: SyncResult }>;

export interface SyncDentistOption {
  id: string;
  name: string;
  specialty: string | null;
}

/** The form's initial values (empty, or taken from a lead card's 'Agendar'). */
export interface SyncPrefill {
  leadId: string;
  leadName: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  treatmentType: string;
}

export interface SyncTabData {
  mode: DentalinkModeLabel;
  /** Where 'Ver en Dentalink' goes: the clinic's dashboard, or our read-only page of the mock; null if unknown. */
  dashboardUrl: string | null;
  dentists: SyncDentistOption[];
  /** Why the dentists could not be read (Dentalink unreachable), in Spanish; the form still shows. */
  dentistsError: string | null;
  /** Today in the clinic (`min` of the appointment date). */
  today: string;
  /** A fresh idempotency key for the form (the browser makes a new one after 'Nueva Sincronización'). */
  submissionId: string;
  prefill: SyncPrefill | null;
  /** Portal bookings whose write-through to Dentalink failed for good or waits for a retry (ADR 023), newest first. */
  failedWriteThroughs: FailedWriteThroughView[];
  /** Each of our dentists and the Dentalink dentist its bookings go to. */
  dentistLinks: DentistLinkView[];
  /** Admins may change the links (asesores see them). */
  canEditLinks: boolean;
}

/** One of our dentists and its Dentalink dentist. */
export interface DentistLinkView {
  dentistId: string;
  name: string;
  dentalinkDentistId: string | null;
  /** The linked dentist's name at Dentalink; null when unlinked or Dentalink could not be read. */
  dentalinkName: string | null;
  /** How the link was made: by name (once, automatically) or by an admin; null when there is no link row. */
  source: "name" | "admin" | null;
  /** unlinked: bookings with this dentist are not sent; missing: linked to a dentist Dentalink lacks (or inactive). */
  problem: "unlinked" | "missing" | null;
}

/** A portal booking, reschedule or cancellation that could not be applied at Dentalink, and why. */
export interface FailedWriteThroughView {
  id: string;
  appointmentId: string;
  action: "book" | "reschedule" | "cancel";
  /** ISO instant of the appointment's start when the change was made. */
  startsAt: string;
  reason: string;
  /** ISO instant the change was queued. */
  at: string;
  /** failed: no more automatic tries; retrying: the outbox tries again at `nextAttemptAt`. */
  state: "failed" | "retrying";
  attempts: number;
  /** The outbox's attempts per row before it gives up. */
  maxAttempts: number;
  nextAttemptAt: string | null;
  patientName: string | null;
  dentistName: string | null;
}
