// npm run bench:auth — the cost of one password hash (argon2id m=19 MiB, t=2, p=1, as the app uses) and the
// sign-ins per second the production server sustains on this machine (one run). Each request carries its own
// X-Forwarded-For (trusted from loopback) and accounts are spread so the rate limits do not decide the figure.
// No performance budget is set for these; `--json <file>` (or BENCH_JSON) writes them as JSON for comparison.
import { hash } from "@node-rs/argon2";
import { emitFigures, figure } from "./bench-json.mjs";
import { startBenchServer } from "./bench-server.mjs";

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// 1. One hash, measured 20 times in this process.
const hashTimes = [];
for (let index = 0; index < 20; index += 1) {
  const started = performance.now();
  await hash(`clave-de-prueba-${index}`, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  hashTimes.push(performance.now() - started);
}
hashTimes.sort((a, b) => a - b);

// 2. Sign-ins through the real /auth action.
const server = await startBenchServer({ port: 3314 });
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
};
async function post(fields) {
  return fetch(`${server.base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: server.base,
      "x-forwarded-for": nextIp(),
    },
    body: new URLSearchParams(fields),
  });
}
try {
  const password = "clave-bench-2026";
  const emails = Array.from({ length: ACCOUNTS }, (_, index) => `bench-${Date.now()}-${index}@example.com`);
  for (const email of emails) {
    const response = await post({ intent: "signup", firstName: "Bench", lastName: "User", email, password });
    if (response.status !== 302) throw new Error(`sign-up failed: ${response.status}`);
  }
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SIGN_INS) {
        const email = emails[next % emails.length];
        next += 1;
        const t0 = performance.now();
        const response = await post({ intent: "signin", email, password });
        latencies.push(performance.now() - t0);
        if (response.status !== 302) throw new Error(`sign-in failed: ${response.status}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `\nNode ${process.version}, ${CONCURRENCY} concurrent clients, AUTH_MAX_CONCURRENT_HASHES=2 (default)`,
  );
  const signInsPerSecond = Math.round((SIGN_INS / seconds) * 10) / 10;
  console.table({
    "argon2id hash (m=19 MiB, t=2, p=1)": {
      "median ms": Math.round(percentile(hashTimes, 50)),
      "p90 ms": Math.round(percentile(hashTimes, 90)),
    },
    "sign-in (POST /auth → 302)": {
      "per second": signInsPerSecond,
      "median ms": Math.round(percentile(latencies, 50)),
      "p99 ms": Math.round(percentile(latencies, 99)),
    },
  });
  emitFigures(
    "auth",
    [
      figure("argon2id hash median", Math.round(percentile(hashTimes, 50)), "ms"),
      figure("sign-ins per second", signInsPerSecond, "req/s"),
      figure("sign-in p99", Math.round(percentile(latencies, 99)), "ms"),
    ],
    { concurrency: CONCURRENCY, signIns: SIGN_INS },
  );
} finally {
  await server.stop();
}
