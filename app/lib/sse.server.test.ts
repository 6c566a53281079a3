import { describe, expect, it } from "vitest";
import { READY_EVENT, sseFrame, sseResponse } from "./sse.server";

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
