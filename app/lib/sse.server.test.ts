import { describe, expect, it } from "vitest";
import { metrics } from "./metrics.server";
import { READY_EVENT, sseFrame, sseResponse, type SseSink } from "./sse.server";

async function firstChunks(response: Response, count: number): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (let read = 0; read < count; read += 1) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text;
}

describe("sseResponse", () => {
  it("says 'ready' only once the producer has started, after what it sent while starting", async () => {
    const order: string[] = [];
    const controller = new AbortController();
    const response = sseResponse({
      request: new Request("http://localhost/events", { signal: controller.signal }),
      keepAliveMs: 60_000,
      start(sink) {
        order.push("subscribed");
        sink.send(sseFrame({ event: "status", data: { status: "open" } }));
      },
    });
    const text = await firstChunks(response, 3);
    expect(order).toEqual(["subscribed"]);
    expect(text).toBe(
      `retry: 2000\n\nevent: status\ndata: {"status":"open"}\n\nevent: ${READY_EVENT}\ndata: {}\n\n`,
    );
  });

  it("sends no 'ready' when the producer closed the stream while starting", async () => {
    const response = sseResponse({
      request: new Request("http://localhost/events"),
      keepAliveMs: 60_000,
      start(sink) {
        sink.close();
      },
    });
    expect(await new Response(response.body).text()).toBe("retry: 2000\n\n");
  });
});

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
