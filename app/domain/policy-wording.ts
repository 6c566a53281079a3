/**
 * How the portal writes the numbers its rules state ("24 horas", "10 minutos", "50%"), so every text that quotes a
 * rule is built from the rule's constant instead of repeating the number by hand. Pure, client-safe.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** 1 → "1 hora"; 24 → "24 horas". */
export function hoursPhrase(hours: number): string {
  return hours === 1 ? "1 hora" : `${hours} horas`;
}

/** 1 → "1 minuto"; 10 → "10 minutos". */
export function minutesPhrase(minutes: number): string {
  return minutes === 1 ? "1 minuto" : `${minutes} minutos`;
}

/** 1 → "1 día"; 90 → "90 días". */
export function daysPhrase(days: number): string {
  return days === 1 ? "1 día" : `${days} días`;
}

/** A lifetime in milliseconds, in whole hours when it is one ("1 hora", "24 horas"), else in minutes ("10 minutos"). */
export function lifetimePhrase(ms: number): string {
  return ms % HOUR_MS === 0 ? hoursPhrase(ms / HOUR_MS) : minutesPhrase(Math.round(ms / MINUTE_MS));
}

/** A notice period in minutes as a sentence says it: 60 → "una hora", 120 → "2 horas", 30 → "30 minutos". */
export function noticePhrase(minutes: number): string {
  if (minutes === 60) return "una hora";
  return minutes % 60 === 0 ? hoursPhrase(minutes / 60) : minutesPhrase(minutes);
}

/** A rate as the clinic writes it: 0.5 → "50%". */
export function percentPhrase(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}
