// npm run bench:ssr — requests/s and latency of SSR `/` against the same HTML served statically by the same server
// (one Node process = one core for JavaScript; autocannon runs in this process on the other core). Budget:
// SSR of / ≥ 1,000 req/s, p99 ≤ 50 ms. `--json <file>` (or BENCH_JSON) also writes the figures as JSON.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { emitFigures, figure } from "./bench-json.mjs";
import { startBenchServer } from "./bench-server.mjs";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const headers = { accept: "text/html", "accept-encoding": "identity" };

async function measure(url) {
  await autocannon({ url, connections, duration: 2, headers }); // warm-up
  const result = await autocannon({ url, connections, duration, headers });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    "req/s": Math.round(result.requests.average),
    "p50 ms": result.latency.p50,
    "p99 ms": result.latency.p99,
    "KB/req": Math.round(result.throughput.average / result.requests.average / 1024),
  };
}

const rows = {};
const figures = [];
for (const [label, cacheSeconds, key] of [
  ["SSR / (render every request)", "0", "render"],
  ["SSR / (default: anonymous HTML cache)", "60", "cached"],
]) {
  // The server lists its public files once at boot (server.mjs): the static copy's path must exist before it starts;
  // its content, the page's HTML, is written once the server can render it.
  if (cacheSeconds === "0") {
    mkdirSync("build/client/__bench", { recursive: true });
    writeFileSync("build/client/__bench/index.html", "");
  }
  const server = await startBenchServer({ port: 3311, env: { SSR_CACHE_SECONDS: cacheSeconds } });
  try {
    rows[label] = await measure(`${server.base}/`);
    // Both rows carry the budget: the cached one is what ships, the rendering one shows the margin without it.
    figures.push(
      figure(`SSR / ${key} req/s`, rows[label]["req/s"], "req/s", { min: 1000 }),
      figure(`SSR / ${key} p99`, rows[label]["p99 ms"], "ms", { max: 50 }),
    );
    if (cacheSeconds === "0") {
      // The same HTML as a static file served by the same Express server.
      const html = await (await fetch(`${server.base}/`, { headers })).text();
      writeFileSync("build/client/__bench/index.html", html);
      rows["static file, same HTML"] = await measure(`${server.base}/__bench/index.html`);
      figures.push(figure("static same HTML req/s", rows["static file, same HTML"]["req/s"], "req/s"));
    }
  } finally {
    rmSync("build/client/__bench", { recursive: true, force: true });
    await server.stop();
  }
}
console.log(
  `\nautocannon: ${connections} connections, ${duration} s per row, loopback, Node ${process.version}`,
);
console.table(rows);
emitFigures("ssr", figures, { connections, secondsPerRow: duration });
