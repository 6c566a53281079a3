import { describe, expect, it } from "vitest";
import { metrics } from "./metrics.server";
import { sseResponse, type SseSink } from "./sse.server";

async function openStreams(): Promise<number> {
  return (await metrics().sseOpen.get()).values[0]?.value ?? 0;
}

describe("sseResponse and clinica_sse_open_connections", () => {
  it("counts a stream while it is open and stops counting it however it ends", async () => {
    const before = await openStreams();
    const left = new AbortController();
    const first = sseResponse({
      request: new Request("http://clinica.test/", { signal: left.signal }),
      keepAliveMs: 60_000,
      start: () => undefined,
    });
    let secondSink: SseSink | undefined;
    const second = sseResponse({
      request: new Request("http://clinica.test/"),
      keepAliveMs: 60_000,
      start: (sink) => {
        secondSink = sink;
      },
    });
    expect(first.headers.get("content-type")).toContain("text/event-stream");
    expect(second.body).not.toBeNull();
    expect(await openStreams()).toBe(before + 2);

    left.abort(); // the client left
    expect(await openStreams()).toBe(before + 1);
    secondSink?.close(); // the producer ended it
    secondSink?.close();
    expect(await openStreams()).toBe(before);
  });

  it("does not count a stream whose client left before it started", async () => {
    const before = await openStreams();
    const gone = new AbortController();
    gone.abort();
    sseResponse({
      request: new Request("http://clinica.test/", { signal: gone.signal }),
      keepAliveMs: 60_000,
      start: () => undefined,
    });
    expect(await openStreams()).toBe(before);
  });
});
