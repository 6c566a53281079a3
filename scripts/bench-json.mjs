// Shared by the bench scripts: each figure as `{ bench, name, value, unit, budget, met }` so that `npm run bench`
// (scripts/bench-all.mjs) collects them without parsing the tables meant for people.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";

/** Where to write the figures: `--json <file>`, `--json=<file>` or BENCH_JSON=<file>; undefined = tables only. */
export function jsonTarget(argv = process.argv.slice(2)) {
  const index = argv.findIndex((arg) => arg === "--json" || arg.startsWith("--json="));
  if (index === -1) return process.env.BENCH_JSON || undefined;
  const arg = argv[index];
  const file = arg === "--json" ? argv[index + 1] : arg.slice("--json=".length);
  if (!file) throw new Error("--json needs a file name (use - for stdout)");
  return file;
}

/**
 * One figure beside its performance budget: `{ max }` (at most) or `{ min }` (at least), or null where none is set
 * (then `met` is null too, so a comparison never mistakes "no budget" for "met").
 */
export function figure(name, value, unit, budget = null) {
  let met = null;
  if (budget && typeof value === "number") {
    met =
      (budget.max === undefined || value <= budget.max) && (budget.min === undefined || value >= budget.min);
  }
  return { name, value, unit, budget, met };
}

/** Writes `{ bench, measuredAt, node, loadavg, figures, notes }` where jsonTarget() says; no-op without one. */
export function emitFigures(bench, figures, notes = {}) {
  const target = jsonTarget();
  if (!target) return;
  const body = JSON.stringify(
    {
      bench,
      measuredAt: new Date().toISOString(),
      node: process.version,
      // The machine's load when the figures were taken: a busy host explains a missed budget.
      loadavg: loadavg().map((value) => Math.round(value * 100) / 100),
      figures: figures.map((entry) => ({ bench, ...entry })),
      notes,
    },
    null,
    2,
  );
  if (target === "-") console.log(body);
  else writeFileSync(target, `${body}\n`);
}
