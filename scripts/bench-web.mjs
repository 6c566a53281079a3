// npm run bench:web — Lighthouse mobile (default throttling) on /, /blog and /auth with Debian's Chromium, median of 5,
// plus the initial JavaScript each page loads (gzip). Budgets: performance ≥ 98; initial JS ≤ 130 KiB gzip.
// `--json <file>` (or BENCH_JSON) also writes the figures as JSON.
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { emitFigures, figure } from "./bench-json.mjs";
import { startBenchServer } from "./bench-server.mjs";

const runs = Number(process.env.BENCH_RUNS ?? 5);
const paths = (process.env.BENCH_PATHS ?? "/,/blog,/auth").split(",");
const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

async function initialJsKiB(base, path) {
  const html = await (await fetch(`${base}${path}`, { headers: { accept: "text/html" } })).text();
  const urls = new Set();
  for (const match of html.matchAll(
    /<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g,
  )) {
    urls.add(match[1]);
  }
  for (const match of html.matchAll(/import\("([^"]+\.js)"\)|import \* as \w+ from "([^"]+\.js)"/g))
    urls.add(match[1] ?? match[2]);
  // Production pages start their modules after the first paint (app/lib/head-rewrite.server.ts, ADR 018): the
  // inline script's first argument lists the preloads, and its module text imports the route modules.
  const deferred =
    /<script[^>]*\sid="modules-after-paint"[^>]*>[^]*?\}\)\((\[[^\]]*\]),("(?:[^"\\]|\\.)*")\)<\/script>/.exec(
      html,
    );
  if (deferred) {
    for (const url of JSON.parse(deferred[1])) urls.add(url);
    for (const match of JSON.parse(deferred[2]).matchAll(
      /import\("([^"]+\.js)"\)|import \* as \w+ from "([^"]+\.js)"/g,
    ))
      urls.add(match[1] ?? match[2]);
  }
  if (urls.size === 0)
    throw new Error(`no JavaScript found in ${path}: did the page's script markup change?`);
  let bytes = 0;
  for (const url of urls)
    bytes += gzipSync(Buffer.from(await (await fetch(new URL(url, base))).arrayBuffer())).length;
  return Math.round((bytes / 1024) * 10) / 10;
}

const server = await startBenchServer({ port: 3312 });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const rows = {};
try {
  for (const path of paths) {
    const scores = [];
    const metrics = { lcp: [], tbt: [], cls: [], fcp: [], cpu: [] };
    const failures = [];
    while (scores.length < runs) {
      const { lhr } = await lighthouse(`${server.base}${path}`, {
        port: chrome.port,
        output: "json",
        onlyCategories: ["performance"],
        logLevel: "error",
      });
      // A run Lighthouse could not complete (its page load timed out on an overloaded machine, say) has no score: it
      // is reported and run again, not counted as a 0 in the median. Three such failures on one page end the bench.
      if (lhr.categories.performance.score === null) {
        failures.push(lhr.runtimeError?.code ?? "no score");
        console.warn(`Lighthouse could not measure ${path}: ${lhr.runtimeError?.message ?? "no score"}`);
        if (failures.length === 3) throw new Error(`Lighthouse failed three times on ${path}`);
        continue;
      }
      scores.push(Math.round(lhr.categories.performance.score * 100));
      metrics.lcp.push(lhr.audits["largest-contentful-paint"].numericValue);
      metrics.fcp.push(lhr.audits["first-contentful-paint"].numericValue);
      metrics.tbt.push(lhr.audits["total-blocking-time"].numericValue);
      metrics.cls.push(lhr.audits["cumulative-layout-shift"].numericValue);
      // Lighthouse's own measure of this machine's CPU speed: its simulated 4× slowdown assumes a fast desktop
      // (~1,000–2,000 and up), so TBT and the score drop on a slower host (lighthouse docs/throttling.md).
      metrics.cpu.push(lhr.environment.benchmarkIndex);
    }
    rows[path] = {
      "performance (median)": median(scores),
      "all runs": scores.join(" "),
      "failed runs": failures.join(" ") || "none",
      "FCP ms": Math.round(median(metrics.fcp)),
      "LCP ms": Math.round(median(metrics.lcp)),
      "TBT ms": Math.round(median(metrics.tbt)),
      CLS: Math.round(median(metrics.cls) * 1000) / 1000,
      "initial JS KiB gz": await initialJsKiB(server.base, path),
      "CPU benchmarkIndex": Math.round(median(metrics.cpu)),
    };
  }
} finally {
  await chrome.kill();
  await server.stop();
}
console.log(`\nLighthouse ${runs} runs per page, mobile, default (simulated) throttling`);
console.table(rows);
emitFigures(
  "web",
  Object.entries(rows).flatMap(([path, row]) => [
    figure(`Lighthouse performance ${path}`, row["performance (median)"], "score", { min: 98 }),
    figure(`initial JS ${path}`, row["initial JS KiB gz"], "KiB gzip", { max: 130 }),
    figure(`LCP ${path}`, row["LCP ms"], "ms"),
    figure(`TBT ${path}`, row["TBT ms"], "ms"),
  ]),
  { runsPerPage: runs },
);
