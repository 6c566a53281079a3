// Starts the production build on a throw-away embedded database for the benchmark scripts.
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * `settle`: on a fresh data directory, also wait for the daily backup the first boot takes (ADR 046: a gzipped dump
 * of the embedded database, seconds of CPU) so that it does not run inside the measurement.
 */
const benchSecret = randomBytes(32).toString("hex");

export async function startBenchServer({
  port,
  env = {},
  dataDir: existingDir,
  keepData = false,
  settle = false,
}) {
  ensureBuild();
  const dataDir = existingDir ?? mkdtempSync(path.join(tmpdir(), "clinica-bench-"));
  const metricsPort = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      "server.mjs",
    ],
    {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        // Demo mode: the benches sign in as the demo patient, and without it the server refuses to boot with no
        // AUTH_SECRET. The database is a throw-away one, so the public demo passwords expose nothing.
        SEED_DEMO: "1",
        // One secret for every boot of this bench process: a bench that restarts the server on the same data (the
        // portal's, on its filled database) can still open what the first boot sealed (the demo's queued message).
        AUTH_SECRET: benchSecret,
        // The benches stand in for a proxy on this host: each simulated client sends its own X-Forwarded-For (so
        // that 500 chat clients are not one address for the rate limits); the server trusts it from loopback only.
        TRUST_PROXY: "loopback",
        // The loopback scrape, to see the first maintenance pass end (below).
        METRICS_PORT: String(metricsPort),
        ...env,
      },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  // A first boot migrates, seeds the demo and vacuums: on a busy 2-core machine that has taken more than 30 s.
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      if (!keepData && !existingDir) rmSync(dataDir, { recursive: true, force: true });
      throw new Error("bench server did not start");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // The embedded database's VACUUM ANALYZE starts once the server listens and runs between requests: a bench times
  // the server as it is after that pass (the rest of the hour), with the statistics of the data it seeded, not the
  // pass itself.
  const maintained = /clinica_job_last_run_timestamp_seconds\{job="database-maintenance"\} \d/;
  for (;;) {
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch(() => null);
    if (scrape?.ok && maintained.test(await scrape.text())) break;
    if (Date.now() > deadline + 120_000) throw new Error("bench server's first maintenance pass did not end");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (settle && !existingDir)
    await bootBackupWritten(path.resolve(process.env.BACKUP_DIR || path.join(dataDir, "backups")));
  return {
    base,
    dataDir,
    pid: child.pid,
    /** The server process's CPU time so far (user + system, ms; Linux), to report CPU per request. */
    cpuMs: () => processCpuMs(child.pid),
    async stop() {
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      if (!keepData && !existingDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A process's CPU time so far (user + system, ms; Linux), NaN elsewhere. */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * React Router's own SSR of a minimal app in a process of its own (scripts/bench-ssr-reference.mjs): what this
 * machine gives the framework alone, beside which the app's figures read.
 */
export async function startReferenceServer({ port }) {
  const child = spawn(process.execPath, ["scripts/bench-ssr-reference.mjs", String(port)], {
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("reference server did not start");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    cpuMs: () => processCpuMs(child.pid),
    async stop() {
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Builds the app when there is no build yet (a fresh clone). A bench that writes into build/ before it starts the
 * server calls this first: the build empties build/.
 */
export function ensureBuild() {
  if (!existsSync("build/server/index.js")) {
    execFileSync(process.execPath, ["node_modules/.bin/react-router", "build"], { stdio: "ignore" });
  }
}

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Waits (at most a minute) until `dir` holds a finished backup (it is renamed into place once written). */
async function bootBackupWritten(dir) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    let names = [];
    try {
      names = readdirSync(dir);
    } catch {
      // not created yet
    }
    if (names.some((name) => name.endsWith(".tar.gz"))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.warn(`no backup in ${dir} after a minute: measuring anyway`);
}

/** Signs a demo account in (password clinica-demo-2026) and answers its session cookie header. */
export async function signInCookie(base, email) {
  const signIn = await fetch(`${base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ intent: "signin", email, password: "clinica-demo-2026" }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  if (signIn.status !== 302 || !cookie) throw new Error(`sign-in failed: ${signIn.status}`);
  return cookie;
}
