import { FORMS_PATH } from "~/domain/forms";

/** The forms pages' addresses (ADR 041), one place for links and redirects. Client-safe. */
export const formFillPath = (assignmentId: string) => `${FORMS_PATH}/${assignmentId}`;
export const patientFormPdfPath = (submissionId: string) => `${FORMS_PATH}/envios/${submissionId}/pdf`;
export const staffSubmissionPath = (submissionId: string) => `/dentista/formularios/${submissionId}`;
export const staffSubmissionPdfPath = (submissionId: string) => `/dentista/formularios/${submissionId}/pdf`;
