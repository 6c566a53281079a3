import type { FormAnswers, FormDefinition } from "~/domain/form-rules";
import type { FormAssignmentStatus } from "~/domain/forms";

/** What the forms pages receive (client-safe; built field by field by the service). */

export interface FormAppointmentDto {
  /** "lunes, 15 de enero de 2024" (clinic calendar). */
  date: string;
  /** "HH:mm" on the clinic's clock. */
  time: string;
  treatment: string;
}

export interface PatientFormItem {
  assignmentId: string;
  title: string;
  status: FormAssignmentStatus;
  appointment: FormAppointmentDto;
  /** A draft was saved ('Guardar y continuar después'). */
  draftSaved: boolean;
  /** The latest submission, for the PDF download. */
  submissionId: string | null;
  /** "25-11-2026 14:03" when completed. */
  completedAt: string | null;
}

export interface PatientFormsPage {
  pending: PatientFormItem[];
  completed: PatientFormItem[];
}

export interface FormFillPage {
  assignmentId: string;
  definition: FormDefinition;
  /** The draft, or the previous submission's answers (without the signature) for a new version. */
  initial: FormAnswers;
  appointment: FormAppointmentDto;
  draftSavedAt: string | null;
  completed: { submissionId: string; when: string } | null;
}

export type FormSubmitResult =
  { ok: true; submissionId: string } | { ok: false; errors: Record<string, string>; message: string };

export interface DentistFormEntry {
  title: string;
  status: FormAssignmentStatus;
  submissionId: string | null;
}

export interface DentistFormsAppointment {
  appointmentId: string;
  /** "lunes, 24 de noviembre". */
  day: string;
  time: string;
  patientName: string;
  forms: DentistFormEntry[];
}

export interface DentistFormsOverview {
  appointments: DentistFormsAppointment[];
  /** Forms still pending across the window. */
  missing: number;
}

export interface SubmissionViewDto {
  id: string;
  title: string;
  version: number;
  patientName: string;
  submittedAt: string;
  supersedes: boolean;
  sections: Array<{ title: string; rows: Array<{ label: string; answer: string }> }>;
  hasSignature: boolean;
  pdfSha256: string;
}
