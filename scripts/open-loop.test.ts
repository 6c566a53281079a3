import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openLoop, percentile } from "./open-loop.mjs";

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server whose `onRequest(socketRequestIndex)` decides: answer 200, or destroy the socket unanswered. */
async function serve(answer: (requestOnSocket: number) => boolean): Promise<string> {
  server = createServer((request, response) => {
    const socket = request.socket as typeof request.socket & { served?: number };
    socket.served = (socket.served ?? 0) + 1;
    if (answer(socket.served)) response.end("ok");
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

describe("openLoop", () => {
  it("sends again, once, a request whose kept-alive socket the server closed, and counts no error", async () => {
    // Every socket serves one request and drops the next one unanswered: what a client sees when its request
    // crosses the server's keep-alive close. One socket in the pool, so that whatever the timing the requests go
    // fresh socket, reused (dropped, sent again on a connection of its own), fresh, reused, …
    const url = await serve((n) => n === 1);
    const result = await openLoop({ url, rate: 40, seconds: 0.25, maxSockets: 1 });
    expect(result.requests).toBe(10);
    expect(result).toMatchObject({ errors: 0, non2xx: 0, timeouts: 0, retried: 5 });
  });

  it("counts a reset on a new socket as an error, with its code, and does not send it again", async () => {
    const url = await serve(() => false);
    const result = await openLoop({ url, rate: 20, seconds: 0.2 });
    expect(result.requests).toBe(4);
    expect(result.errors).toBe(4);
    expect(result.retried).toBe(0);
    expect(result.errorCodes).toEqual({ ECONNRESET: 4 });
  });

  it("reads nearest-rank percentiles", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([], 99)).toBeNaN();
  });
});
