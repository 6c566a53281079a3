/**
 * Runs a process (and the processes it starts) on a shifted clock, to try a test at a given moment of the clinic's
 * calendar: `CLOCK_AT=2026-11-28T03:05:00Z NODE_OPTIONS="--import ./tests/setup/shift-clock.mjs" npx vitest run …`
 * starts the clock at 00:05 on a Saturday in Santiago, and it runs on from there (docs/testing.md, "The clinic's
 * clock"). Only `Date` moves: timers and `performance.now()` keep real time. PGlite reads the shifted clock; a
 * PostgreSQL server does not, so use the PGlite layer. The children inherit the same offset through
 * CLOCK_OFFSET_MS, so a test runner, its workers and the e2e servers agree on the time.
 */
const at = process.env.CLOCK_AT;
if (at) {
  const RealDate = globalThis.Date;
  const target = RealDate.parse(at);
  if (Number.isNaN(target)) throw new Error(`CLOCK_AT is not an instant: ${at}`);
  const offset = process.env.CLOCK_OFFSET_MS ? Number(process.env.CLOCK_OFFSET_MS) : target - RealDate.now();
  process.env.CLOCK_OFFSET_MS = String(offset);
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate;
}
