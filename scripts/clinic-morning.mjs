// Two end-to-end tests need the clinic's day: the demo reminder goes out only outside quiet hours (21:00–08:00,
// ADR 039) and a cancellation "less than 24 hours ahead" needs a free time 1–23 hours from now on a clinic day.
// At night and on weekends they skip. scripts/test-all.sh then runs them once more on the next clinic morning,
// with the runner's and the servers' clocks shifted there (tests/setup/shift-clock.mjs), so that every run of the
// suite covers them.
//
// Prints that morning (10:00 America/Santiago, Monday to Friday) as an ISO instant when the clinic's clock now is
// outside Monday–Friday 08:00–17:00; prints nothing inside those hours, when the tests run as they are.
const parts = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Santiago",
  weekday: "short",
  hour: "numeric",
  minute: "numeric",
  hourCycle: "h23",
});

function clinicClock(instant) {
  const values = Object.fromEntries(parts.formatToParts(instant).map((part) => [part.type, part.value]));
  return { weekday: values.weekday, minutes: Number(values.hour) * 60 + Number(values.minute) };
}

const weekday = (clock) => !["Sat", "Sun"].includes(clock.weekday);

export function clinicMorningFor(now) {
  const clock = clinicClock(now);
  if (weekday(clock) && clock.minutes >= 8 * 60 && clock.minutes < 17 * 60) return null;
  // Minute by minute is 6,000 steps at most (a Friday evening to Monday 10:00): cheap, and right across the clock
  // changes of April and September, whatever the offset.
  const start = Math.ceil(now.getTime() / 60_000) * 60_000;
  for (let at = start; at < start + 5 * 24 * 60 * 60_000; at += 60_000) {
    const candidate = clinicClock(new Date(at));
    if (weekday(candidate) && candidate.minutes === 10 * 60) return new Date(at);
  }
  throw new Error("no clinic morning within five days");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const morning = clinicMorningFor(new Date());
  if (morning) console.log(morning.toISOString());
}
