// Production server: Express 5 in front of the React Router request handler (DESIGN §2, STACK-NOTES 6).
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import compression from "compression";
import express from "express";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { createHtmlCache } from "./server/html-cache.mjs";

const MAX_BODY_BYTES = 256 * 1024;
const build = await import("./build/server/index.js");
const entry = build.entry.module;

try {
  await entry.startup();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const env = process.env;
const port = Number(env.PORT || 3000);
const host = env.HOST || "0.0.0.0";
const handleRequest = createRequestHandler(build, "production");
const htmlCache = createHtmlCache({ ttlSeconds: Number(env.SSR_CACHE_SECONDS ?? 60), maxEntries: 200 });

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY || "loopback");
app.use(compression());
app.use((req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  // The Google popup comes back from the provider to these pages and must keep its opener to report the result.
  const oauthReturn = req.path.startsWith("/auth/callback") || req.path.startsWith("/api/auth/callback");
  res.setHeader("Cross-Origin-Opener-Policy", oauthReturn ? "unsafe-none" : "same-origin-allow-popups");
  if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
});
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
app.use(express.static("build/client", { maxAge: "1h", index: false }));

/** Express request → Fetch Request, with the body capped at MAX_BODY_BYTES. */
function toFetchRequest(req, res) {
  const url = new URL(req.originalUrl || req.url, `${req.protocol}://${req.get("host")}`);
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
    else if (value !== undefined) headers.set(name, value);
  }
  // The client IP as Express resolved it from the trusted proxies; whatever a client sent under this name is
  // overwritten (app/lib/client-ip.server.ts).
  headers.set("x-clinica-client-ip", req.ip ?? "unknown");
  const init = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    let received = 0;
    res.locals.bodyTooLarge = false;
    init.body = Readable.toWeb(req).pipeThrough(
      new TransformStream({
        transform(chunk, ctrl) {
          received += chunk.byteLength;
          if (received > MAX_BODY_BYTES) {
            // Whatever the route makes of the broken body, the answer is 413 (see the handler below).
            res.locals.bodyTooLarge = true;
            ctrl.error(new Error("body too large"));
          } else ctrl.enqueue(chunk);
        },
      }),
    );
    init.duplex = "half";
  }
  return new Request(url, init);
}

async function sendFetchResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!response.body) return void res.end();
  try {
    await pipeline(Readable.fromWeb(response.body), res);
  } catch (error) {
    // The visitor went away mid-response: nothing to report.
    if (error?.code !== "ERR_STREAM_PREMATURE_CLOSE" && error?.code !== "ERR_STREAM_UNABLE_TO_PIPE")
      throw error;
  }
}

app.all("/{*splat}", async (req, res, next) => {
  try {
    if (Number(req.get("content-length") || 0) > MAX_BODY_BYTES) {
      return void res.status(413).type("text/plain; charset=utf-8").send("La solicitud es demasiado grande.");
    }
    const cacheKey = htmlCache.keyFor(req);
    const hit = cacheKey && htmlCache.get(cacheKey);
    if (hit) return void htmlCache.send(res, hit, randomBytes(16).toString("base64url"));

    const response = await handleRequest(toFetchRequest(req, res), new RouterContextProvider());
    if (res.locals.bodyTooLarge) {
      return void res.status(413).type("text/plain; charset=utf-8").send("La solicitud es demasiado grande.");
    }
    if (cacheKey && htmlCache.cacheable(response)) {
      const stored = await htmlCache.store(cacheKey, response);
      return void htmlCache.send(res, stored, randomBytes(16).toString("base64url"));
    }
    await sendFetchResponse(res, response);
  } catch (error) {
    next(error);
  }
});

app.use((error, req, res, _next) => {
  const tooLarge = error instanceof Error && error.message === "body too large";
  if (!tooLarge) console.error(error);
  if (res.headersSent) return void res.end();
  res
    .status(tooLarge ? 413 : 500)
    .type("text/plain; charset=utf-8")
    .send(tooLarge ? "La solicitud es demasiado grande." : "Error inesperado. Intenta nuevamente.");
});

const server = app.listen(port, host, () => {
  console.log(JSON.stringify({ level: 30, msg: `listening on http://localhost:${port}`, port }));
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ level: 30, msg: `${signal}: shutting down` }));
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  server.close();
  server.closeIdleConnections();
  try {
    await entry.shutdown();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
