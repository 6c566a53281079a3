import { getDb } from "~/db/client.server";
import { runWaitlistPass, type WaitlistPass } from "~/features/waitlist/waitlist-offers.server";
import { intervalJob } from "./interval-job.server";

/**
 * How often the waitlist job looks for freed slots to offer (ADR 040). A slot freed now is offered by the next pass;
 * its later batches go every ten minutes (`WAITLIST_BATCH_INTERVAL_MINUTES`), so a pass every 20 seconds keeps them
 * on time and offers a freed slot within seconds of its freeing.
 */
export const WAITLIST_CHECK_MS = 20_000;

/** One pass: expires old entries, closes or offers every due slot. Safe on every instance at once. */
export async function runWaitlistOnce(now = new Date()): Promise<WaitlistPass> {
  return runWaitlistPass(await getDb(), now);
}

const waitlistJob = intervalJob({
  key: "waitlist",
  everyMs: WAITLIST_CHECK_MS,
  runAtStart: true,
  whileRunning: "skip",
  failureMessage: "waitlist job failed",
  run: () => runWaitlistOnce(),
});

export function startWaitlistJob() {
  waitlistJob.start();
}

/** Stops the job and waits for a pass in progress, so that it ends before the database closes. */
export async function stopWaitlistJob(): Promise<void> {
  await waitlistJob.stop();
}
