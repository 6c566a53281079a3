/** How long ago something happened to a lead, in the funnel's units. Pure. */

export type ElapsedUnit = "minutes" | "hours" | "days";

export interface Elapsed {
  value: number;
  unit: ElapsedUnit;
}

const MINUTE_MS = 60_000;

/** Whole minutes under 60, whole hours under 24, otherwise whole days. A future instant (clock skew) counts as 0. */
export function elapsedSince(from: Date, now: Date): Elapsed {
  const minutes = Math.floor(Math.max(0, now.getTime() - from.getTime()) / MINUTE_MS);
  if (minutes < 60) return { value: minutes, unit: "minutes" };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { value: hours, unit: "hours" };
  return { value: Math.floor(hours / 24), unit: "days" };
}

/** { 5, minutes } → "5 min"; { 1, hours } → "1 hora"; { 3, days } → "3 días". */
export function formatElapsed({ value, unit }: Elapsed): string {
  switch (unit) {
    case "minutes":
      return `${value} min`;
    case "hours":
      return value === 1 ? "1 hora" : `${value} horas`;
    case "days":
      return value === 1 ? "1 día" : `${value.toLocaleString("es-CL")} días`;
  }
}

/** "hace 5 min", "hace 3 horas", "hace 2 días"; under a minute, "hace menos de 1 min". */
export function formatLeadAge(from: Date, now: Date): string {
  const elapsed = elapsedSince(from, now);
  if (elapsed.unit === "minutes" && elapsed.value === 0) return "hace menos de 1 min";
  return `hace ${formatElapsed(elapsed)}`;
}
