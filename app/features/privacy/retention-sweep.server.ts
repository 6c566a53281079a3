import type { Database } from "~/db/client.server";
import { clinicDate } from "~/domain/clinic-time";
import {
  retentionCutoff,
  retentionRules,
  type RetentionAction,
  type RetentionKey,
  type RetentionRule,
} from "~/domain/retention";
import { logger } from "~/lib/base/logger.server";
import { countRows, keptSpecs, sweepBatch, sweepSpecs } from "./retention-repository.server";
import { claimJobPeriod, finishJobPeriod } from "./job-runs-repository.server";

/**
 * The retention sweep (ADR 038): applies `domain/retention.ts` to the database. Deletes or anonymises what has
 * passed its period, table by table, in bounded batches (each its own short transaction, so the app keeps
 * working meanwhile); the legal minimums (clinical register, appointments, payments) are only counted.
 */

export interface RetentionCount {
  key: RetentionKey;
  table: string;
  label: string;
  action: RetentionAction;
  cutoff: Date;
  /** Rows removed or anonymised (the sweep), that would be (dry run), or past the legal minimum and kept. */
  rows: number;
}

export const RETENTION_BATCH_SIZE = 500;

function countOf(rule: RetentionRule, cutoff: Date, rows: number): RetentionCount {
  return {
    key: rule.key as RetentionKey,
    table: rule.table,
    label: rule.label,
    action: rule.action,
    cutoff,
    rows,
  };
}

function specOf(rule: RetentionRule) {
  const key = rule.key as RetentionKey;
  return key in sweepSpecs ? sweepSpecs[key as keyof typeof sweepSpecs] : undefined;
}

function keptOf(rule: RetentionRule) {
  const key = rule.key as RetentionKey;
  return key in keptSpecs ? keptSpecs[key as keyof typeof keptSpecs] : undefined;
}

/** What a sweep at `now` would do, per rule: counts only, nothing changes. */
export async function retentionDryRun(db: Database, now = new Date()): Promise<RetentionCount[]> {
  const counts: RetentionCount[] = [];
  for (const rule of retentionRules) {
    const cutoff = retentionCutoff(rule, now);
    const spec = specOf(rule) ?? keptOf(rule);
    if (!spec) throw new Error(`retention rule without SQL: ${rule.key}`);
    counts.push(countOf(rule, cutoff, await countRows(db, spec.table, spec.where(cutoff))));
  }
  return counts;
}

/**
 * The sweep at `now`: for each rule, batches of at most `batchSize` rows until none is left past its period.
 * `shouldStop` (the job stopping for shutdown) ends it between batches; what is left waits for the next sweep.
 */
export async function runRetentionSweep(
  db: Database,
  now = new Date(),
  options: { batchSize?: number; shouldStop?: () => boolean } = {},
): Promise<RetentionCount[]> {
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  const counts: RetentionCount[] = [];
  for (const rule of retentionRules) {
    const cutoff = retentionCutoff(rule, now);
    const spec = specOf(rule);
    const kept = keptOf(rule);
    if (!spec) {
      if (!kept) throw new Error(`retention rule without SQL: ${rule.key}`);
      counts.push(countOf(rule, cutoff, await countRows(db, kept.table, kept.where(cutoff))));
      continue;
    }
    let rows = 0;
    while (!options.shouldStop?.()) {
      const changed = await sweepBatch(db, spec, cutoff, batchSize);
      rows += changed;
      if (changed < batchSize) break;
    }
    counts.push(countOf(rule, cutoff, rows));
  }
  return counts;
}

export const RETENTION_JOB = "retention";

/**
 * The daily run: claims today's date (America/Santiago) for the job in `job_runs` — the first instance to claim it
 * sweeps, any other (or a second run the same day) does nothing — then records the counts. A run that dies midway
 * leaves its day claimed; the next day's sweep takes up whatever is left (each rule is cumulative).
 */
export async function runDailyRetention(
  db: Database,
  now = new Date(),
  options: { shouldStop?: () => boolean } = {},
): Promise<{ claimed: boolean; period: string; counts: RetentionCount[] }> {
  const period = clinicDate(now);
  if (!(await claimJobPeriod(db, RETENTION_JOB, period, now))) return { claimed: false, period, counts: [] };
  const counts = await runRetentionSweep(db, now, options);
  const summary = Object.fromEntries(
    counts.filter((count) => count.action !== "keep").map((count) => [count.key, count.rows]),
  );
  await finishJobPeriod(db, RETENTION_JOB, period, summary);
  logger.info({ period, ...summary }, "retention sweep done");
  return { claimed: true, period, counts };
}

const ACTION_COLUMN: Record<RetentionAction, [string, string]> = {
  delete: ["se eliminarían", "eliminadas"],
  anonymise: ["se anonimizarían", "anonimizadas"],
  keep: ["conservadas (mínimo legal cumplido)", "conservadas (mínimo legal cumplido)"],
};

/** The report `npm run retention` prints: one line per rule with its table, cut-off and count. */
export function formatRetentionCounts(counts: readonly RetentionCount[], dryRun: boolean): string {
  const rows = counts.map((count) => [
    count.key,
    count.table,
    count.cutoff.toISOString(),
    String(count.rows),
    ACTION_COLUMN[count.action][dryRun ? 0 : 1],
  ]);
  const header = ["regla", "tabla", "antes de", "filas", dryRun ? "qué pasaría" : "qué pasó"];
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => row[index]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index]!))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
