/**
 * es-CL formatting and Chilean phone numbers: the one family of date and time formatters. Calendar dates
 * ("YYYY-MM-DD") carry no zone and are formatted as they are; instants are shown on the clinic's clock
 * (America/Santiago), wherever the server or the browser runs. Pure, client-safe.
 */
import { CLINIC_TIME_ZONE } from "./clinic-zone";

// Declared once, in clinic-zone; re-exported for the formatters' existing importers.
export { CLINIC_TIME_ZONE };

/**
 * Parses a Chilean phone number typed in any common way ("9 8765 4321", "+56 (2) 2345-6789", "56987654321")
 * into E.164 (+56 followed by 9 digits). Mobiles start with 9, Santiago landlines with 2, other regions with an
 * area code 32–75. Returns null when it is not a valid Chilean number.
 */
export function parseChileanPhone(input: string): string | null {
  const trimmed = input.trim();
  if (!/^[+\d\s().-]+$/.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, "");
  if (trimmed.startsWith("+") && !digits.startsWith("56")) return null;
  if (digits.length === 11 && digits.startsWith("56")) digits = digits.slice(2);
  if (digits.length !== 9) return null;
  const mobile = /^9\d{8}$/.test(digits);
  const santiago = /^2\d{8}$/.test(digits);
  const regional = /^(3[2-5]|4[1-5]|5[1-8]|6[1-7]|7[1-5])\d{7}$/.test(digits);
  return mobile || santiago || regional ? `+56${digits}` : null;
}

/** "+56987654321" → "+56 9 8765 4321"; "+56223456789" → "+56 2 2345 6789"; "+56322345678" → "+56 32 234 5678". */
export function formatChileanPhone(e164: string): string {
  const digits = e164.replace(/^\+56/, "");
  if (!/^\d{9}$/.test(digits)) return e164;
  if (digits.startsWith("9") || digits.startsWith("2")) {
    return `+56 ${digits.slice(0, 1)} ${digits.slice(1, 5)} ${digits.slice(5)}`;
  }
  return `+56 ${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5)}`;
}

/** "+56987654321" → "56987654321", as wa.me expects. */
export function whatsappNumber(e164: string): string {
  return e164.replace(/\D/g, "");
}

/**
 * An Intl formatter made at its first use, not when the module loads: each costs about a millisecond to create (more
 * on a phone), and a page that imports this module for one of them should not pay for all of them at hydration.
 */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const clpFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.NumberFormat("es-CL", {
      style: "currency",
      currency: "CLP",
      maximumFractionDigits: 0,
    }),
);

/** 1500000 → "$1.500.000". */
export function formatCLP(amount: number): string {
  return clpFormatter().format(Math.round(amount));
}

const longDateFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }),
);

const weekdayDateFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }),
);

const weekdayShortFormatter = /* @__PURE__ */ lazy(
  () => new Intl.DateTimeFormat("es-CL", { weekday: "short", timeZone: "UTC" }),
);
const shortDayFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      day: "numeric",
      month: "short",
      timeZone: "UTC",
    }),
);
const shortDateFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    }),
);
const dayHeadingFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      weekday: "long",
      day: "numeric",
      month: "long",
      timeZone: "UTC",
    }),
);

function parseIsoDate(isoDate: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) throw new RangeError(`Fecha inválida: ${isoDate}`);
  return new Date(`${isoDate}T00:00:00Z`);
}

/** formatDate's answers: Intl formatting costs tens of microseconds, and pages show the same dates on every render. */
const longDates = new Map<string, string>();
const LONG_DATES_KEPT = 1000;

/** How many answers each memoised formatter keeps (emptied when full: a page shows a few dozen dates). */
const FORMATS_KEPT = 1000;

/**
 * A calendar-date formatter that keeps its answers (at most FORMATS_KEPT), as formatDate does. An invalid date is
 * never kept: `format` throws for it every time.
 */
function memoByDate(format: (isoDate: string) => string): (isoDate: string) => string {
  const kept = new Map<string, string>();
  return (isoDate) => {
    let text = kept.get(isoDate);
    if (text === undefined) {
      text = format(isoDate);
      if (kept.size >= FORMATS_KEPT) kept.clear();
      kept.set(isoDate, text);
    }
    return text;
  };
}

/** A calendar date ("2024-01-15") → "15 de enero de 2024". Calendar dates carry no zone, so none shifts them. */
export function formatDate(isoDate: string): string {
  let text = longDates.get(isoDate);
  if (text === undefined) {
    text = longDateFormatter().format(parseIsoDate(isoDate));
    if (longDates.size >= LONG_DATES_KEPT) longDates.clear();
    longDates.set(isoDate, text);
  }
  return text;
}

/** A calendar date → "lunes, 15 de enero de 2024". */
export function formatDateWithWeekday(isoDate: string): string {
  return weekdayDates(isoDate);
}
const weekdayDates = /* @__PURE__ */ memoByDate((isoDate) =>
  weekdayDateFormatter().format(parseIsoDate(isoDate)),
);

/** A calendar date → "lunes, 24 de noviembre" (a day's heading, without the year). */
export function formatDayHeading(isoDate: string): string {
  return dayHeadingFormatter().format(parseIsoDate(isoDate));
}

/** A calendar date → "lun" (Intl may add a final period, "lun."; callers that show it bare strip it). */
export function formatWeekdayShort(isoDate: string): string {
  return weekdaysShort(isoDate);
}
const weekdaysShort = /* @__PURE__ */ memoByDate((isoDate) =>
  weekdayShortFormatter().format(parseIsoDate(isoDate)),
);

/** A calendar date → "3 nov" (a chart's axis, a day chip). */
export function formatShortDay(isoDate: string): string {
  return shortDays(isoDate);
}
const shortDays = /* @__PURE__ */ memoByDate((isoDate) => shortDayFormatter().format(parseIsoDate(isoDate)));

/** A calendar date → "26 oct 2026". */
export function formatShortDate(isoDate: string): string {
  return shortDateFormatter().format(parseIsoDate(isoDate));
}

const timeFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: CLINIC_TIME_ZONE,
    }),
);

/** An instant → "HH:mm" on the clinic's clock. */
export function formatClinicTime(instant: Date): string {
  const minute = Math.floor(instant.getTime() / 60_000);
  // An invalid date is not kept: the formatter throws its RangeError as before.
  if (!Number.isFinite(minute)) return timeFormatter().format(instant);
  let text = clinicTimes.get(minute);
  if (text === undefined) {
    text = timeFormatter().format(instant);
    if (clinicTimes.size >= FORMATS_KEPT) clinicTimes.clear();
    clinicTimes.set(minute, text);
  }
  return text;
}
/*
 * "HH:mm" is the same for every instant of one minute: the clinic's offsets from UTC are whole hours and its clock
 * changes on a minute's start, so the answers are kept by the instant's minute.
 */
const clinicTimes = new Map<number, string>();

const dateTimeFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: CLINIC_TIME_ZONE,
    }),
);

/** An instant → "15 de enero de 2024 a las 09:30" on the clinic's clock. */
export function formatClinicDateTime(instant: Date): string {
  return dateTimeFormatter().format(instant);
}

const numericDateTimeFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: CLINIC_TIME_ZONE,
    }),
);

/** An instant → "15-01-2024, 09:30" on the clinic's clock (tables). */
export function formatClinicDateTimeNumeric(instant: Date): string {
  return numericDateTimeFormatter().format(instant);
}

const numericDateTimeSecondsFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZone: CLINIC_TIME_ZONE,
    }),
);

/** An instant → "25-11-2026, 01:52:36" on the clinic's clock (logs, where seconds matter). */
export function formatClinicDateTimeSeconds(instant: Date): string {
  return numericDateTimeSecondsFormatter().format(instant);
}

const localeDateTimeFormatter = /* @__PURE__ */ lazy(
  () =>
    new Intl.DateTimeFormat("es-CL", {
      day: "numeric",
      month: "numeric",
      year: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      timeZone: CLINIC_TIME_ZONE,
    }),
);

/** An instant → "25-11-2026, 1:52:36 a. m." on the clinic's clock (es-CL's default date and time). */
export function formatClinicTimestamp(instant: Date): string {
  return localeDateTimeFormatter().format(instant);
}

/**
 * A duration in whole minutes as a person says it (es-CL): "12 min", "2 h 5 min", "1 día 3 h", "12 días". Minutes
 * are dropped from a day or more, hours from ten days or more: precision nobody reads on a dashboard card.
 */
export function formatDurationMinutes(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  if (total < 60) return `${total} min`;
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const rest = total % 60;
  if (days === 0) return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  const dayText = `${days.toLocaleString("es-CL")} ${days === 1 ? "día" : "días"}`;
  return days >= 10 || hours === 0 ? dayText : `${dayText} ${hours} h`;
}
