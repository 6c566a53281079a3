import type { FieldErrors } from "~/lib/form-errors";

/** What the lead action answers; shared by the landing form and the guided assistant. */
export type LeadActionResult =
  { ok: true; promise: { title: string; detail: string } } | { ok: false; errors: FieldErrors };
