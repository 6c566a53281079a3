// npm run bench — every `bench:*` script of package.json in turn (ssr, portal, auth, web first, then any later
// ones), each asked for its figures as JSON (BENCH_JSON), collected into bench-results.json at the repository root:
// each figure beside its performance budget, with the machine's load, so that runs can be compared.
// BENCH_ONLY=portal,ssr runs some of them. Exits 1 when a script failed or wrote no figures; a missed budget is
// reported (met: false), not an exit code, since one run on a loaded machine is no verdict.
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";

const ORDER = ["bench:ssr", "bench:portal", "bench:auth", "bench:web"];
const output = path.resolve("bench-results.json");
const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
const round = (values) => values.map((value) => Math.round(value * 100) / 100);

const scripts = Object.keys(JSON.parse(readFileSync("package.json", "utf8")).scripts)
  .filter((name) => name.startsWith("bench:"))
  .toSorted((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const only = process.env.BENCH_ONLY?.split(",").map((name) => `bench:${name.trim().replace(/^bench:/, "")}`);
const selected = only ? scripts.filter((name) => only.includes(name)) : scripts;
if (selected.length === 0) throw new Error(`BENCH_ONLY matches none of ${scripts.join(", ")}`);

function commit() {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

function run(script, jsonFile) {
  return new Promise((resolve) => {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const child = spawn(npm, ["run", "--silent", script], {
      env: { ...process.env, BENCH_JSON: jsonFile },
      stdio: "inherit",
    });
    child.on("exit", (code, signal) => resolve({ code, signal }));
    child.on("error", (error) => resolve({ code: null, signal: null, error }));
  });
}

const workDir = mkdtempSync(path.join(tmpdir(), "clinica-bench-all-"));
const startedAt = new Date().toISOString();
const runs = [];
const figures = [];
try {
  for (const script of selected) {
    const jsonFile = path.join(workDir, `${script.replace(":", "-")}.json`);
    const loadBefore = round(loadavg());
    const started = performance.now();
    console.log(`\n=== npm run ${script} (load average ${loadBefore.join(" ")}) ===`);
    const exit = await run(script, jsonFile);
    const entry = {
      script,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      loadavgBefore: loadBefore,
      loadavgAfter: round(loadavg()),
      ok: false,
    };
    if (exit.code !== 0) {
      entry.error = exit.error?.message ?? `exited with ${exit.code ?? exit.signal}`;
    } else if (existsSync(jsonFile)) {
      const report = JSON.parse(readFileSync(jsonFile, "utf8"));
      entry.ok = true;
      entry.notes = report.notes;
      figures.push(...report.figures);
    } else {
      entry.error = "wrote no JSON figures (does it call emitFigures from bench-json.mjs?)";
    }
    runs.push(entry);
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

const summary = {
  startedAt,
  finishedAt: new Date().toISOString(),
  commit: commit(),
  node: process.version,
  cpus: cpus().length,
  runs,
  figures,
};
writeFileSync(output, `${JSON.stringify(summary, null, 2)}\n`);

const budgetText = (budget) =>
  budget
    ? [
        budget.min === undefined ? "" : `≥ ${budget.min}`,
        budget.max === undefined ? "" : `≤ ${budget.max}`,
      ].join("")
    : "";
console.log(`\n${path.relative(process.cwd(), output)} (${figures.length} figures)`);
console.table(
  figures.map((entry) => ({
    bench: entry.bench,
    figure: entry.name,
    value: entry.value,
    unit: entry.unit,
    budget: budgetText(entry.budget),
    met: entry.met === null ? "" : entry.met ? "yes" : "NO",
  })),
);
const failed = runs.filter((entry) => !entry.ok);
for (const entry of failed) console.error(`${entry.script}: ${entry.error}`);
process.exitCode = failed.length > 0 ? 1 : 0;
