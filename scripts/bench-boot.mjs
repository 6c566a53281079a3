// npm run bench:boot — server boot time (DESIGN §5: "migrations included, demo data present ≤ 3 s"): the production
// build in demo mode, from spawn to the first 200 of /healthz (server.mjs listens only once migrations, the demo
// accounts and the demo data are done). Measured with the demo's staff data (SEED_DEMO_STAFF, issue 24) and
// without it, each as a first boot on an empty embedded database (initdb and every seed; reported) and as restarts
// on that database (the budget: the seeds then find their data and write nothing).
// BENCH_BOOT_RUNS (default 3) restarts per case; `--json <file>` (or BENCH_JSON) writes the figures.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { emitFigures, figure } from "./bench-json.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const BOOT_BUDGET_MS = 3_000;
const runs = Number(process.env.BENCH_BOOT_RUNS ?? 3);
const port = Number(process.env.BENCH_PORT ?? 3890);

if (!existsSync("build/server/index.js")) {
  execFileSync(process.execPath, ["node_modules/.bin/react-router", "build"], { stdio: "ignore" });
}

/** Starts the server on `dataDir`, returns the ms until /healthz answers 200, then stops it (SIGTERM). */
async function boot(dataDir, staff) {
  const started = performance.now();
  const child = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SEED_DEMO: "1",
      SEED_DEMO_STAFF: staff ? "1" : "0",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let gone = null;
  const exited = new Promise((resolve) =>
    child.on("exit", (code) => {
      gone = code;
      resolve(code);
    }),
  );
  const deadline = Date.now() + 60_000;
  let ms;
  for (;;) {
    // A server that died at start (a bad environment, an old Node) is an error now, not after the deadline.
    if (gone !== null) throw new Error(`the server exited with code ${gone} before answering /healthz`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) {
        ms = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("the server did not start within 60 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGTERM");
  await exited;
  return Math.round(ms);
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

const results = [];
for (const staff of [false, true]) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "clinica-bench-boot-"));
  try {
    const first = await boot(dataDir, staff);
    const restarts = [];
    for (let run = 0; run < runs; run++) restarts.push(await boot(dataDir, staff));
    results.push({ staff, first, restarts, median: median(restarts) });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log("\nServer boot, spawn to first /healthz 200 (ms)\n");
console.log("demo staff data | first boot (empty database) | restarts | median restart | budget");
for (const row of results) {
  console.log(
    `${row.staff ? "with   " : "without"}         | ${String(row.first).padStart(26)} | ${row.restarts.join(", ").padEnd(8)} | ${String(row.median).padStart(14)} | ≤ ${BOOT_BUDGET_MS}`,
  );
}

emitFigures(
  "boot",
  results.flatMap((row) => {
    const label = row.staff ? "with the demo's staff data" : "without the demo's staff data";
    return [
      figure(`first boot on an empty database, ${label}`, row.first, "ms"),
      figure(`boot with demo data present (median restart), ${label}`, row.median, "ms", {
        max: BOOT_BUDGET_MS,
      }),
    ];
  }),
  { runs },
);
