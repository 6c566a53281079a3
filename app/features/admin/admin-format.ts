/** Dates of the admin tables: es-CL on the clinic's clock (whatever the server's zone). Pure, client-safe. */
import { formatClinicDateTimeNumeric } from "~/domain/format";

/** An instant → "15-01-2024, 09:30" (America/Santiago). */
export const formatAdminDateTime = formatClinicDateTimeNumeric;

/** A DTO's date: the ISO instant for `<time dateTime>` and the label already formatted on the server. */
export interface DateLabel {
  iso: string;
  label: string;
}

export function dateLabel(instant: Date): DateLabel {
  return { iso: instant.toISOString(), label: formatAdminDateTime(instant) };
}
