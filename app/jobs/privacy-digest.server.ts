import { getDb } from "~/db/client.server";
import { expireStaleRequests, sendPrivacyDigest } from "~/features/privacy/request-digest.server";
import { intervalJob } from "./interval-job.server";

const EVERY_MS = 60 * 60_000;

/**
 * Hourly: closes unconfirmed public requests whose proof ran out, and sends the privacy contact's daily e-mail once
 * per Santiago date while any request is due within 5 days (the date is claimed in `job_runs`, so every instance may
 * run this).
 */
export async function runPrivacyDigestOnce(now = new Date()) {
  const db = await getDb();
  await expireStaleRequests(db, now);
  return sendPrivacyDigest(db, now);
}

const job = intervalJob({
  key: "privacy-digest",
  everyMs: EVERY_MS,
  runAtStart: true,
  whileRunning: "skip",
  failureMessage: "privacy digest failed",
  run: () => runPrivacyDigestOnce(),
});

export function startPrivacyDigest() {
  job.start();
}

export async function stopPrivacyDigest(): Promise<void> {
  await job.stop();
}
