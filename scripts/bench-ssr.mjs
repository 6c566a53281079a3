// npm run bench:ssr — requests/s and latency of SSR `/` against the same HTML served statically by the same server
// (one Node process = one core for JavaScript; autocannon runs in this process on the other core). Rows: the page
// rendered on every request for an anonymous visitor (HTML cache off) and for a signed-in person (whose pages the
// cache never keeps), the same HTML as a static file, and the default anonymous HTML cache. Budgets: rendering
// every request ≥ 600 req/s with p99 ≤ 50 ms (issue 25); the cached page ≥ 1,000 req/s, p99 ≤ 50 ms. The server's
// CPU per request is reported too: unlike req/s it hardly depends on what else the machine runs. `--json <file>`
// (or BENCH_JSON) also writes the figures as JSON.
//
// The figures are a running server's: before the first row the server renders both kinds of page for
// BENCH_WARMUP_SECONDS (default 40). A fresh process compiles its hot code while it serves the first few thousand
// pages (V8's tiers; its optimizing compiler's threads share the second core with autocannon here): on this 2-core VM
// rows of 8 s from boot read 2.6, 2.3, then 1.5–1.6 ms of CPU per signed-in page from ~40 s on (ADR 056).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { emitFigures, figure } from "./bench-json.mjs";
import { ensureBuild, signInCookie, startBenchServer, startReferenceServer } from "./bench-server.mjs";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const headers = { accept: "text/html", "accept-encoding": "identity" };
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 40);
const RENDER_BUDGET = { reqPerSecond: 600, p99: 50 };
const CACHED_BUDGET = { reqPerSecond: 1000, p99: 50 };

async function measure(server, url, extraHeaders = {}) {
  const all = { ...headers, ...extraHeaders };
  await autocannon({ url, connections, duration: 2, headers: all }); // warm-up
  const cpuBefore = server.cpuMs();
  const result = await autocannon({ url, connections, duration, headers: all });
  const cpuPerRequest = (server.cpuMs() - cpuBefore) / result.requests.total;
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    "req/s": Math.round(result.requests.average),
    "p50 ms": result.latency.p50,
    "p99 ms": result.latency.p99,
    "KB/req": Math.round(result.throughput.average / result.requests.average / 1024),
    "server CPU ms/req": Math.round(cpuPerRequest * 100) / 100,
  };
}

/**
 * The rows' own traffic, unmeasured: anonymous and signed-in pages in turns of 2 s (so that the code is compiled for
 * both kinds of page, not for one and then recompiled), the last turn signed in like the first row.
 */
async function warmUp(server, cookie) {
  const turns = Math.max(2, Math.round(warmupSeconds / 2));
  for (let turn = 0; turn < turns; turn++) {
    const signedIn = (turns - turn) % 2 === 1;
    await autocannon({
      url: `${server.base}/`,
      connections,
      duration: warmupSeconds / turns,
      headers: signedIn ? { ...headers, cookie } : headers,
    });
  }
}

/** Signs the demo patient in (SEED_DEMO=1 on the bench server) and returns the Cookie header to send. */
async function demoPatientCookie(base) {
  const cookie = await signInCookie(base, "paciente@clinica.example");
  // A page for a signed-in person is never cached by anyone (root middleware): proof that the row renders it.
  const check = await fetch(`${base}/`, { headers: { ...headers, cookie } });
  await check.arrayBuffer();
  if (!check.ok || check.headers.get("cache-control") !== "no-store")
    throw new Error(
      `/ for the signed-in patient: ${check.status}, Cache-Control ${check.headers.get("cache-control")}`,
    );
  return cookie;
}

function budgetFigures(key, row, budget) {
  return [
    figure(`SSR / ${key} req/s`, row["req/s"], "req/s", { min: budget.reqPerSecond }),
    figure(`SSR / ${key} p99`, row["p99 ms"], "ms", { max: budget.p99 }),
    figure(`SSR / ${key} server CPU per request`, row["server CPU ms/req"], "ms"),
  ];
}

const rows = {};
const figures = [];
const loadBefore = loadavg()[0];

// The server lists its public files once at boot (server.mjs): the static copy's path must exist before it starts;
// its content, the page's HTML, is written once the server can render it. On a fresh clone the build comes first
// (it empties build/, the copy's folder with it).
ensureBuild();
mkdirSync("build/client/__bench", { recursive: true });
writeFileSync("build/client/__bench/index.html", "");
let server = await startBenchServer({ port: 3311, env: { SSR_CACHE_SECONDS: "0" }, settle: true });
try {
  const cookie = await demoPatientCookie(server.base);
  await warmUp(server, cookie);
  rows["SSR / signed in (render every request)"] = await measure(server, `${server.base}/`, { cookie });
  figures.push(...budgetFigures("signedin", rows["SSR / signed in (render every request)"], RENDER_BUDGET));
  rows["SSR / anonymous (HTML cache off)"] = await measure(server, `${server.base}/`);
  figures.push(...budgetFigures("render", rows["SSR / anonymous (HTML cache off)"], RENDER_BUDGET));
  // The same HTML as a static file served by the same Express server.
  const html = await (await fetch(`${server.base}/`, { headers })).text();
  writeFileSync("build/client/__bench/index.html", html);
  rows["static file, same HTML"] = await measure(server, `${server.base}/__bench/index.html`);
  figures.push(figure("static same HTML req/s", rows["static file, same HTML"]["req/s"], "req/s"));
} finally {
  rmSync("build/client/__bench", { recursive: true, force: true });
  await server.stop();
}
server = await startBenchServer({ port: 3311, env: { SSR_CACHE_SECONDS: "60" }, settle: true });
try {
  rows["SSR / (default: anonymous HTML cache)"] = await measure(server, `${server.base}/`);
  figures.push(...budgetFigures("cached", rows["SSR / (default: anonymous HTML cache)"], CACHED_BUDGET));
} finally {
  await server.stop();
}
// The reference: React Router's own SSR of a minimal app on this machine (issue 25: "about 1,000 requests/s per
// core" where the budget was set). Its req/s says how fast this machine is at the moment; the app's rows read beside it.
const reference = await startReferenceServer({ port: 3312 });
try {
  await autocannon({ url: `${reference.base}/`, connections, duration: warmupSeconds / 2, headers });
  rows["reference: React Router's own SSR, minimal app"] = await measure(reference, `${reference.base}/`);
} finally {
  await reference.stop();
}
const referenceRate = rows["reference: React Router's own SSR, minimal app"]["req/s"];
figures.push(
  figure("SSR reference (React Router, minimal app) req/s", referenceRate, "req/s"),
  figure(
    "SSR / signed in, share of the reference",
    Math.round((100 * rows["SSR / signed in (render every request)"]["req/s"]) / referenceRate),
    "%",
  ),
);
const load = [loadBefore, loadavg()[0]].map((value) => value.toFixed(2)).join(" → ");
console.log(
  `\nautocannon: ${connections} connections, ${duration} s per row after ${warmupSeconds} s of warm-up, ` +
    `loopback, Node ${process.version}; ` +
    `load average (1 min) ${load}: req/s and p99 are for this machine's load, CPU per request much less so`,
);
console.table(rows);
emitFigures("ssr", figures, { connections, secondsPerRow: duration, warmupSeconds });
