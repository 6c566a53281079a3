import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DEMO_FILE_CONTENTS, demoPng } from "./dentalink-demo-records";
import { createDentalinkFileFetcher } from "./dentalink-files.server";

const API = "https://api.dentalink.test/api/v1";

function recordingFetch(response: () => Response) {
  const calls: Array<{ url: string; authorization: string | null }> = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(input instanceof Request ? input.url : input),
      authorization: new Headers(init?.headers).get("authorization"),
    });
    return response();
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

async function bytesOf(body: ReadableStream<Uint8Array> | Uint8Array): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

describe("live mode", () => {
  it("sends the token only to the API's own origin", async () => {
    const { calls, fetch } = recordingFetch(
      () => new Response("pdf", { headers: { "content-type": "application/pdf" } }),
    );
    const files = createDentalinkFileFetcher({ mode: "live", baseUrl: API, apiKey: "secret", fetch });
    await files.fetchFile("https://api.dentalink.test/api/v1/archivos/1/descargar");
    await files.fetchFile("https://storage.example.com/signed/1.pdf?sig=abc");
    expect(calls).toEqual([
      { url: "https://api.dentalink.test/api/v1/archivos/1/descargar", authorization: "Token secret" },
      { url: "https://storage.example.com/signed/1.pdf?sig=abc", authorization: null },
    ]);
  });

  it("refuses URLs that are not http(s) and passes on only known content types", async () => {
    const { fetch } = recordingFetch(
      () => new Response("<script>", { headers: { "content-type": "text/html" } }),
    );
    const files = createDentalinkFileFetcher({ mode: "live", baseUrl: API, apiKey: "secret", fetch });
    await expect(files.fetchFile("file:///etc/passwd")).rejects.toMatchObject({ code: "INVALID_RESPONSE" });
    expect((await files.fetchFile("https://storage.example.com/x")).contentType).toBe(
      "application/octet-stream",
    );
  });

  it("fails on a vendor error and on a file over the size cap", async () => {
    const missing = createDentalinkFileFetcher({
      mode: "live",
      baseUrl: API,
      fetch: recordingFetch(() => new Response("no", { status: 404 })).fetch,
    });
    await expect(missing.fetchFile("https://storage.example.com/x")).rejects.toMatchObject({ status: 404 });
    const large = createDentalinkFileFetcher({
      mode: "live",
      baseUrl: API,
      maxBytes: 4,
      fetch: recordingFetch(() => new Response("123456789")).fetch,
    });
    const file = await large.fetchFile("https://storage.example.com/x");
    await expect(bytesOf(file.body)).rejects.toThrow("file larger than the proxy's limit");
  });
});

describe("mock mode", () => {
  it("serves the demo files: real PDFs and PNGs", async () => {
    const files = createDentalinkFileFetcher({ mode: "mock" });
    const pdf = await files.fetchFile("https://archivos.dentalink.invalid/demo/9001.pdf");
    const text = Buffer.from(await bytesOf(pdf.body)).toString("latin1");
    expect(pdf.contentType).toBe("application/pdf");
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    // The xref offsets point at the objects they name.
    const xref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(xref, xref + 4)).toBe("xref");
    const first = Number(/0000000000 65535 f \n(\d{10})/.exec(text)?.[1]);
    expect(text.slice(first, first + 7)).toBe("1 0 obj");
    await expect(files.fetchFile("https://archivos.dentalink.invalid/demo/nope.pdf")).rejects.toMatchObject({
      status: 404,
    });
  });

  it("builds PNGs whose image data inflates to the declared size", () => {
    const png = Buffer.from(demoPng(10, 6, 1));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(10);
    expect(png.readUInt32BE(20)).toBe(6);
    const length = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString("latin1")).toBe("IDAT");
    expect(inflateSync(png.subarray(41, 41 + length))).toHaveLength(6 * 11);
    expect([...DEMO_FILE_CONTENTS.values()].map((file) => file.contentType).toSorted()).toEqual([
      "application/pdf",
      "application/pdf",
      "application/pdf",
      "application/pdf",
      "image/png",
      "image/png",
      "image/png",
      "image/png",
    ]);
  });
});
