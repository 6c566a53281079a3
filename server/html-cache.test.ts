import { describe, expect, it } from "vitest";
import { createHtmlCache } from "./html-cache.mjs";

function fakeReq(init: { method?: string; path?: string; cookie?: string; accept?: string }) {
  const headers: Record<string, string | undefined> = {
    cookie: init.cookie,
    accept: init.accept ?? "text/html",
  };
  const path = init.path ?? "/";
  return { method: init.method ?? "GET", path, originalUrl: path, get: (name: string) => headers[name] };
}

function fakeRes() {
  const res = { headers: {} as Record<string, string>, status: 0, body: "" };
  return Object.assign(res, {
    setHeader: (name: string, value: string) => void (res.headers[name.toLowerCase()] = value),
    status: (code: number) =>
      Object.assign(res, { status: code }) && { send: (body: string) => void (res.body = body) },
  });
}

describe("html cache", () => {
  const cache = createHtmlCache({ ttlSeconds: 60, maxEntries: 2 });

  it("caches only anonymous GET documents", () => {
    expect(cache.keyFor(fakeReq({}))).toBe("/|");
    expect(cache.keyFor(fakeReq({ cookie: "lang=en" }))).toBe("/|lang=en");
    expect(cache.keyFor(fakeReq({ cookie: "session=abc" }))).toBeNull();
    expect(cache.keyFor(fakeReq({ method: "POST" }))).toBeNull();
    expect(cache.keyFor(fakeReq({ accept: "application/json" }))).toBeNull();
    expect(cache.keyFor(fakeReq({ path: "/blog.data" }))).toBeNull();
  });

  it("never caches a response that sets a cookie or has no nonce", () => {
    const html = {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "script-src 'nonce-abc'",
    };
    expect(cache.cacheable(new Response("x", { headers: html }))).toBe(true);
    expect(cache.cacheable(new Response("x", { headers: { ...html, "set-cookie": "lang=en" } }))).toBe(false);
    // A page marked no-store (a reminder's single-use link) is never kept.
    expect(cache.cacheable(new Response("x", { headers: { ...html, "cache-control": "no-store" } }))).toBe(
      false,
    );
    expect(cache.cacheable(new Response("x", { status: 404, headers: html }))).toBe(false);
    expect(cache.cacheable(new Response("x", { headers: { "content-type": "text/html" } }))).toBe(false);
  });

  it("swaps the nonce on every send", async () => {
    const response = new Response('<script nonce="OLDNONCE">1</script>', {
      headers: {
        "content-type": "text/html",
        "content-security-policy": "script-src 'self' 'nonce-OLDNONCE'",
      },
    });
    const entry = await cache.store("/|", response);
    const res = fakeRes();
    cache.send(res, entry, "NEWNONCE");
    expect(res.body).toBe('<script nonce="NEWNONCE">1</script>');
    expect(res.headers["content-security-policy"]).toBe("script-src 'self' 'nonce-NEWNONCE'");
    expect(cache.get("/|")).toBe(entry);
  });
});
