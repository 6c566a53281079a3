// npm run bench:chat — chat fan-out on one instance (budget: 500 concurrent SSE clients, p99 ≤ 100 ms): BENCH_ROOMS
// rooms (50) with BENCH_CLIENTS SSE clients (500) spread over them, one message per second per room for
// BENCH_SECONDS (60), each room on its own phase within the second (open loop, ADR 028). Each room is handed to a
// person first, so the agent stays quiet and only the post + fan-out path is timed: latency = receipt on a client −
// the message's due time. Reports p50/p99, the server's resident memory and CPU per message, and the load average.
// `--json <file>` (or BENCH_JSON) writes the figures.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { emitFigures, figure } from "./bench-json.mjs";
import { startBenchServer } from "./bench-server.mjs";

const rooms = Number(process.env.BENCH_ROOMS ?? 50);
const clients = Number(process.env.BENCH_CLIENTS ?? 500);
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const port = Number(process.env.BENCH_PORT ?? 3316);

function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((entry) => entry.startsWith("VmRSS:"));
    return Math.round(Number(line.replace(/\D+/g, "")) / 1024);
  } catch {
    return Number.NaN;
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// One message per second per room is 60 a minute per guest, over the per-guest budget a patient gets (20): the bench
// raises it, so the limiter's counter is still charged on every POST but never refuses. Likewise its streams: one
// room has one guest, and 500 clients over 50 rooms are 10 streams per guest (and per room's address), past a
// patient's cap of 5 concurrent streams (ADR 032); the bench raises the caps to what it opens, and every stream is
// still counted.
const streamsPerRoom = Math.ceil(clients / rooms);
const server = await startBenchServer({
  port,
  env: {
    CHAT_MESSAGES_PER_MINUTE: "120",
    CHAT_STREAMS_PER_GUEST: String(Math.max(5, streamsPerRoom)),
    CHAT_STREAMS_PER_ADDRESS: String(Math.max(20, streamsPerRoom)),
  },
});
const api = (path) => `${server.base}/api/chat/${path}`;
const json = { "content-type": "application/json" };
const latencies = [];
/** Due time → the POST's answer: the send path alone (the fan-out usually arrives before the answer). */
const postLatencies = [];
/** The slowest delivery and its message's due time: one stall or a spread tail? */
let slowest = { ms: 0, due: 0 };
const controllers = [];
let received = 0;
try {
  const roomList = [];
  for (let index = 0; index < rooms; index++) {
    // Each room is a patient at an address of its own (the server trusts loopback as its proxy), so the per-address
    // limit on guest creation and login applies as it would to 50 patients.
    const from = { "x-forwarded-for": `10.${Math.floor(index / 250)}.0.${(index % 250) + 1}` };
    const created = await fetch(api("guest"), {
      method: "POST",
      headers: { ...json, ...from },
      body: JSON.stringify({ account_id: "clinica-chat" }),
    });
    const cookie = created.headers.getSetCookie()[0].split(";")[0];
    const guest = await created.json();
    const room = await (
      await fetch(api("guest/room"), {
        method: "POST",
        headers: { ...json, cookie },
        body: JSON.stringify({ account_id: "clinica-chat", guest_id: guest.id, agent_id: "dentist-bot" }),
      })
    ).json();
    const tokens = await (
      await fetch(api(`guest/login?guest_id=${guest.id}&account_id=clinica-chat`), {
        method: "POST",
        headers: { cookie, ...from },
      })
    ).json();
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    await fetch(api(`rooms/${room.room_id}/handoff`), {
      method: "POST",
      headers: { ...json, ...auth },
      body: "{}",
    });
    roomList.push({ id: room.room_id, auth, from });
  }
  const rssBefore = rssMb(server.pid);

  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      const room = roomList[index % rooms];
      const controller = new AbortController();
      controllers.push(controller);
      // From the room's patient's address: 500 streams from 127.0.0.1 alone would be one address's flood.
      const response = await fetch(api(`rooms/${room.id}/events`), {
        headers: { ...room.auth, ...room.from },
        signal: controller.signal,
      });
      if (response.status !== 200)
        throw new Error(`stream refused: ${response.status} ${await response.text()}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      void (async () => {
        let buffer = "";
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            buffer += value;
            let cut;
            while ((cut = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const match = /"content":"bench:(\d+(?:\.\d+)?)"/.exec(block);
              if (match) {
                const latency = performance.timeOrigin + performance.now() - Number(match[1]);
                latencies.push(latency);
                if (latency > slowest.ms) slowest = { ms: latency, due: Number(match[1]) };
                received += 1;
              }
            }
          }
        } catch {
          // aborted at the end
        }
      })();
    }),
  );
  console.log(`${clients} SSE clients connected to ${rooms} rooms; posting for ${seconds} s…`);

  // Open loop (ADR 028, the reasoning of ADR 015): room r's k-th message is due at start + k s + r × (1 s / rooms),
  // sent at its due time whether or not earlier POSTs have answered, and its latency counts from that due time (a
  // server — or a bench client — that falls behind is charged for the wait). "One message per second per room" is
  // each room on its own phase, not the 50 rooms firing together at the top of every second (a burst that measures a
  // queue the bench itself creates).
  let posted = 0;
  let failed = 0;
  const cpuBefore = server.cpuMs();
  const loadBefore = loadavg()[0];
  const start = performance.timeOrigin + performance.now() + 50;
  const pending = [];
  for (let k = 0; k < seconds; k++) {
    for (let r = 0; r < rooms; r++) {
      const due = start + k * 1000 + (r * 1000) / rooms;
      const wait = due - (performance.timeOrigin + performance.now());
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const room = roomList[r];
      pending.push(
        fetch(api(`rooms/${room.id}/messages`), {
          method: "POST",
          headers: { ...json, ...room.auth },
          body: JSON.stringify({ id: crypto.randomUUID(), content: `bench:${due}` }),
        }).then(
          async (answer) => {
            await answer.arrayBuffer();
            postLatencies.push(performance.timeOrigin + performance.now() - due);
            if (answer.status === 201) posted += 1;
            else failed += 1;
          },
          () => {
            failed += 1;
          },
        ),
      );
    }
  }
  await Promise.all(pending);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rssAfter = rssMb(server.pid);
  const cpuPerMessage = Math.round(((server.cpuMs() - cpuBefore) / Math.max(posted, 1)) * 100) / 100;
  const loadAfter = loadavg()[0];
  const sorted = latencies.toSorted((a, b) => a - b);
  const p50 = Math.round(percentile(sorted, 50) * 10) / 10;
  const p99 = Math.round(percentile(sorted, 99) * 10) / 10;
  const expected = posted * (clients / rooms);
  const postSorted = postLatencies.toSorted((a, b) => a - b);
  const postP50 = Math.round(percentile(postSorted, 50) * 10) / 10;
  const postP99 = Math.round(percentile(postSorted, 99) * 10) / 10;
  console.table({
    "SSE clients": clients,
    rooms,
    "messages posted (201)": posted,
    "POSTs failed": failed,
    "deliveries expected": expected,
    "deliveries received": received,
    "fan-out p50 (ms)": p50,
    "fan-out p99 (ms, budget 100)": p99,
    "POST answered p50 / p99 (ms)": `${postP50} / ${postP99}`,
    "deliveries over 100 ms": latencies.filter((latency) => latency > 100).length,
    "slowest delivery (ms, at second)": `${Math.round(slowest.ms)} (${((slowest.due - start) / 1000).toFixed(1)})`,
    "server RSS before streams (MB)": rssBefore,
    "server RSS at the end (MB)": rssAfter,
    "server CPU per message (ms)": cpuPerMessage,
    "load average (1 min) before / after": `${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}`,
  });
  emitFigures(
    "chat",
    [
      figure("fan-out latency p50", p50, "ms"),
      figure("fan-out latency p99", p99, "ms", { max: 100 }),
      figure("POST answered p99", postP99, "ms"),
      figure("deliveries received / expected", expected ? received / expected : 0, "ratio", { min: 1 }),
      figure("server RSS", rssAfter, "MB"),
      figure("server CPU per message", cpuPerMessage, "ms"),
    ],
    { clients, rooms, seconds },
  );
} finally {
  for (const controller of controllers) controller.abort();
  await server.stop();
}
