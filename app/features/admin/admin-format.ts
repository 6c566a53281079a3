/** Dates of the admin tables: es-CL on the clinic's clock (whatever the server's zone). Pure, client-safe. */
import { CLINIC_TIME_ZONE } from "~/domain/format";

const dateTimeFormatter = new Intl.DateTimeFormat("es-CL", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: CLINIC_TIME_ZONE,
});

/** An instant → "15-01-2024, 09:30" (America/Santiago). */
export function formatAdminDateTime(instant: Date): string {
  return dateTimeFormatter.format(instant);
}

/** A DTO's date: the ISO instant for `<time dateTime>` and the label already formatted on the server. */
export interface DateLabel {
  iso: string;
  label: string;
}

export function dateLabel(instant: Date): DateLabel {
  return { iso: instant.toISOString(), label: formatAdminDateTime(instant) };
}
