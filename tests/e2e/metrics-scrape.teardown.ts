import { mkdir, writeFile } from "node:fs/promises";

/**
 * After the whole e2e suite, while the server is still up (Playwright stops its web servers after the global
 * teardown): one authorised scrape of /metrics, kept in test-results/metrics-after-e2e.txt, its first 40 lines
 * printed (issue 25 asks for them in the closing note). A scrape that fails fails the run: the endpoint is part of
 * what the suite checks.
 */
export default async function scrapeMetrics(): Promise<void> {
  const base = process.env.E2E_BASE_URL!;
  const token = process.env.E2E_METRICS_TOKEN!;
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.text();
  if (response.status !== 200 || !body.includes("clinica_http_request_duration_seconds_bucket")) {
    throw new Error(`/metrics after the e2e suite answered ${response.status}: ${body.slice(0, 200)}`);
  }
  // The clinic-morning pass of scripts/test-all.sh (two tests on a shifted clock) keeps the main run's scrape.
  if (process.env.CLOCK_AT) return;
  await mkdir("test-results", { recursive: true });
  await writeFile("test-results/metrics-after-e2e.txt", body);
  console.log(`\n/metrics after the e2e suite (first 40 of ${body.split("\n").length} lines):`);
  console.log(body.split("\n").slice(0, 40).join("\n"));
  // The clinic's own series (buckets left out), which the first lines (the process's) do not reach.
  const own = body.split("\n").filter((line) => line.startsWith("clinica_") && !line.includes("_bucket{"));
  console.log(`\nclinica_* samples without buckets (${own.length}; in the file):`);
  console.log(own.slice(0, 60).join("\n"));
}
