/**
 * A random id per form submission, created in the browser the first time the form is sent (so cached HTML never
 * shares one). A double submit carries the same id and the server stores one row. Without JavaScript the field
 * stays empty and the server falls back to its own duplicate check.
 */
export const SUBMISSION_ID_FIELD = "submissionId";

export function ensureSubmissionId(event: React.FormEvent<HTMLFormElement>) {
  const field = event.currentTarget.elements.namedItem(SUBMISSION_ID_FIELD);
  if (field instanceof HTMLInputElement && !field.value) field.value = crypto.randomUUID();
}

export function SubmissionIdField() {
  return <input type="hidden" name={SUBMISSION_ID_FIELD} defaultValue="" />;
}
