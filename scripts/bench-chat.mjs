// npm run bench:chat — chat fan-out on one instance (DESIGN §5: 500 concurrent SSE clients, p99 ≤ 100 ms): BENCH_ROOMS
// rooms (50) with BENCH_CLIENTS SSE clients (500) spread over them, one message per second per room for
// BENCH_SECONDS (60). Each room is handed to a person first, so the agent stays quiet and only the fan-out is timed:
// latency = receipt on a client − the moment just before the POST. Reports p50/p99 and the server's resident memory.
// `--json <file>` (or BENCH_JSON) writes the figures.
import { readFileSync } from "node:fs";
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

const server = await startBenchServer({ port });
const api = (path) => `${server.base}/api/chat/${path}`;
const json = { "content-type": "application/json" };
const latencies = [];
const controllers = [];
let received = 0;
try {
  const roomList = [];
  for (let index = 0; index < rooms; index++) {
    const created = await fetch(api("guest"), {
      method: "POST",
      headers: json,
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
        headers: { cookie },
      })
    ).json();
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    await fetch(api(`rooms/${room.room_id}/handoff`), {
      method: "POST",
      headers: { ...json, ...auth },
      body: "{}",
    });
    roomList.push({ id: room.room_id, auth });
  }
  const rssBefore = rssMb(server.pid);

  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      const room = roomList[index % rooms];
      const controller = new AbortController();
      controllers.push(controller);
      const response = await fetch(api(`rooms/${room.id}/events`), {
        headers: room.auth,
        signal: controller.signal,
      });
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
                latencies.push(performance.timeOrigin + performance.now() - Number(match[1]));
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

  let posted = 0;
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    const tick = Date.now();
    await Promise.all(
      roomList.map(async (room) => {
        const sentAt = performance.timeOrigin + performance.now();
        const answer = await fetch(api(`rooms/${room.id}/messages`), {
          method: "POST",
          headers: { ...json, ...room.auth },
          body: JSON.stringify({ id: crypto.randomUUID(), content: `bench:${sentAt}` }),
        });
        if (answer.status === 201) posted += 1;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() - tick))));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rssAfter = rssMb(server.pid);
  const sorted = latencies.toSorted((a, b) => a - b);
  const p50 = Math.round(percentile(sorted, 50) * 10) / 10;
  const p99 = Math.round(percentile(sorted, 99) * 10) / 10;
  const expected = posted * (clients / rooms);
  console.table({
    "SSE clients": clients,
    rooms,
    "messages posted": posted,
    "deliveries expected": expected,
    "deliveries received": received,
    "fan-out p50 (ms)": p50,
    "fan-out p99 (ms, budget 100)": p99,
    "server RSS before streams (MB)": rssBefore,
    "server RSS at the end (MB)": rssAfter,
  });
  emitFigures(
    "chat",
    [
      figure("fan-out latency p50", p50, "ms"),
      figure("fan-out latency p99", p99, "ms", { max: 100 }),
      figure("deliveries received / expected", expected ? received / expected : 0, "ratio", { min: 1 }),
      figure("server RSS", rssAfter, "MB"),
    ],
    { clients, rooms, seconds },
  );
} finally {
  for (const controller of controllers) controller.abort();
  await server.stop();
}
