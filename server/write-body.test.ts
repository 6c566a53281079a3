import { createHash, randomBytes } from "node:crypto";
import { get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createGunzip } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { writeBody } from "./write-body.mjs";

let server: Server | undefined;
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

afterEach(async () => {
  process.off("warning", onWarning);
  warnings.length = 0;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** An app that answers GET / with `chunks` (through the compression middleware, as server.mjs does). */
async function serve(chunks: Buffer[], onCancel?: () => void): Promise<string> {
  const app = express();
  app.use(compression());
  app.get("/", async (_req, res) => {
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (index < chunks.length) controller.enqueue(chunks[index++]!);
        else controller.close();
      },
      cancel: () => onCancel?.(),
    });
    res.setHeader("Content-Type", "application/octet-stream");
    await writeBody(body, res);
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

describe("writeBody", () => {
  it("streams a large gzipped body to a slow reader intact, without piling up 'drain' listeners", async () => {
    process.on("warning", onWarning);
    // Random bytes do not compress: 8 MiB keep the gzip stream and the socket full, so the writer waits for 'drain'
    // many times (each wait left a listener on the gzip stream before; Node warns past 10).
    const chunks = Array.from({ length: 128 }, () => randomBytes(64 * 1024));
    const url = await serve(chunks);
    const received = await new Promise<Buffer>((resolve, reject) => {
      get(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
        expect(response.headers["content-encoding"]).toBe("gzip");
        const parts: Buffer[] = [];
        const gunzip = response.pipe(createGunzip());
        gunzip.on("data", (part: Buffer) => {
          parts.push(part);
          // A slow reader: a pause after every piece.
          response.pause();
          setTimeout(() => response.resume(), 1);
        });
        gunzip.on("end", () => resolve(Buffer.concat(parts)));
        gunzip.on("error", reject);
      }).on("error", reject);
    });
    expect(sha(received)).toBe(sha(Buffer.concat(chunks)));
    expect(warnings.map((warning) => warning.name)).not.toContain("MaxListenersExceededWarning");
  });

  it("cancels the body when the client goes away mid-response", async () => {
    let cancelled = false;
    const chunks = Array.from({ length: 256 }, () => randomBytes(64 * 1024));
    const url = await serve(chunks, () => (cancelled = true));
    await new Promise<void>((resolve) => {
      const request = get(url, (response) => {
        response.once("data", () => {
          request.destroy();
          resolve();
        });
      });
      request.on("error", () => {});
    });
    await expect.poll(() => cancelled).toBe(true);
  });
});
