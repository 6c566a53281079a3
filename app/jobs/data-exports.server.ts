import { getDb } from "~/db/client.server";
import { setDataExportKick } from "~/features/privacy/data-export-kick.server";
import { runDataExports } from "~/features/privacy/data-export-service.server";
import { clinicFacts, env } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { intervalJob } from "./interval-job.server";

/*
 * Builds the data exports people ask for on 'Mis Datos' (access and portability, ADR 037) and expires them after 7
 * days. Every instance may run it: an export is claimed with FOR UPDATE SKIP LOCKED and a lease, so two instances
 * never build the same one and a build cut short (crash, shutdown) is taken again once its lease runs out. A request
 * rings the job (`kickDataExportJob`), so a build starts at once; the poll catches what a ring missed.
 */

const POLL_MS = 10_000;

const dataExportJob = intervalJob({
  key: "data-exports",
  everyMs: POLL_MS,
  runAtStart: true,
  whileRunning: "again",
  failureMessage: "data export job failed",
  run: async (job) => {
    const current = env();
    const facts = clinicFacts(current);
    const built = await runDataExports(await getDb(), {
      clinic: { name: facts.name, privacyEmail: facts.privacyEmail, siteUrl: facts.siteUrl },
      paceMs: current.DATA_EXPORT_PACE_MS,
      stopping: () => job.stopping,
    });
    if (built > 0) logger.info({ built }, "data exports built");
  },
});

export function startDataExportJob() {
  dataExportJob.start();
  setDataExportKick(() => dataExportJob.runSoon());
}

/** Stops polling and waits (bounded) for the build in progress; an unfinished one is retried after its lease. */
export async function stopDataExportJob(timeoutMs = 5_000): Promise<void> {
  setDataExportKick(undefined);
  const finished = await dataExportJob.stop(timeoutMs);
  if (!finished) logger.warn({ timeoutMs }, "data export still building at shutdown; it will be retried");
}
