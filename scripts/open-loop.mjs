// An open-loop load generator: request i is due at start + i / rate, whether or not earlier ones have answered, and
// its latency is counted from that due time (so a server that falls behind is charged for the wait; no coordinated
// omission). autocannon's `overallRate` is not this: each connection sends its share of a second back to back and
// then waits for the next one-second tick, so the server sees 200 requests as a burst of 20 concurrent ones at the top
// of every second, and its latency histogram pads each slow answer with synthetic 1 ms-spaced samples. Used by
// scripts/bench-portal.mjs ("p99 ≤ 50 ms at 200 requests/s", the portal's budget).
import http from "node:http";

const round = (value) => Math.round(value * 10) / 10;

/** Nearest-rank percentile of sorted numbers. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Sends GET `url` at a steady `rate` per second for `seconds`, over keep-alive connections (at most `maxSockets`).
 * Resolves with latency percentiles in ms (rounded to 0.1), the achieved rate of completed requests, and the count
 * of non-2xx answers, of requests unanswered after `timeoutMs` (counted at `timeoutMs` in the percentiles), of
 * requests sent again on a new socket (see below) and of other errors.
 */
export async function openLoop({ url, headers = {}, rate, seconds, maxSockets = 64, timeoutMs = 10_000 }) {
  // An idle keep-alive socket is closed by the client after 4 s, before the server's own 5 s (Node's default
  // keepAliveTimeout), so that the client rarely picks a socket the server is closing. (Node's agent reads the server's
  // `Keep-Alive: timeout=5` hint only to lower a timeout of its own: without this option its sockets never time out.)
  const agent = new http.Agent({ keepAlive: true, maxSockets, timeout: 4_000 });
  const target = new URL(url);
  const total = Math.round(rate * seconds);
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let retried = 0;
  const errorCodes = {};
  let finished = 0;
  // Sockets that have carried a whole response, i.e. kept alive for the next request. (Node sets
  // `request.reusedSocket` only when a request finds a free socket, not when a queued request is handed one.)
  const carried = new WeakSet();
  const start = performance.now() + 50;

  // `first`: the request's first sending, through the pool; its one resend goes on a connection of its own (`agent:
  // false`), since the pool might hand it another kept-alive socket the server is closing as well.
  const send = (due, resolve, first = true) => {
    const request = http.request(
      target,
      { method: "GET", agent: first ? agent : false, headers, timeout: timeoutMs },
      (response) => {
        response.resume();
        const socket = response.socket;
        response.on("end", () => {
          carried.add(socket);
          latencies.push(performance.now() - due);
          if (response.statusCode < 200 || response.statusCode > 299) non2xx++;
          finished = performance.now();
          resolve();
        });
      },
    );
    let reused = false;
    request.on("socket", (socket) => (reused = carried.has(socket)));
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error) => {
      // A request unanswered after timeoutMs is a result (an overloaded server), not a broken run: it counts at
      // timeoutMs in the percentiles.
      if (error.message === "timeout") {
        timeouts++;
        latencies.push(timeoutMs);
        resolve();
        return;
      }
      // A GET sent on a kept-alive socket that the server closed at that moment (its keep-alive timeout: the
      // request crossed the server's FIN) is sent again once, on a new connection, as browsers do (Node's
      // documentation of `request.reusedSocket`); its latency still counts from its due time.
      if (first && reused && (error.code === "ECONNRESET" || error.code === "EPIPE")) {
        retried++;
        send(due, resolve, false);
        return;
      }
      // Any other error (refused, reset on a new socket) is the caller's to treat as a failure.
      errors++;
      const code = error.code ?? error.message;
      errorCodes[code] = (errorCodes[code] ?? 0) + 1;
      resolve();
    });
    request.end();
  };

  const pending = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(new Promise((resolve) => send(due, resolve)));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const elapsedSeconds = (finished - start) / 1000;
  return {
    requests: total,
    achievedRate: round(latencies.length / Math.max(elapsedSeconds, seconds)),
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? Number.NaN),
    non2xx,
    errors,
    /** Error codes of `errors` with their counts, e.g. { ECONNREFUSED: 1 }. */
    errorCodes,
    timeouts,
    /** Requests sent again after the server closed their kept-alive socket (counted once, in their latency). */
    retried,
  };
}
