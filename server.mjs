// Production server: Express 5 in front of the React Router request handler (DESIGN §2, STACK-NOTES 6).
import { createServer } from "node:http";
import { readdirSync } from "node:fs";
import { enableCompileCache } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import compression from "compression";
import express from "express";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { createHtmlCache } from "./server/html-cache.mjs";
import { trustProxySetting, warnOnceOnUntrustedProxy } from "./server/proxy-trust.mjs";
import { createRouteIdResolver } from "./server/route-id.mjs";
import { routeSubsetBuild } from "./server/route-subset.mjs";
import { writeBody } from "./server/write-body.mjs";

const MAX_BODY_BYTES = 256 * 1024;
/** How long a SIGTERM waits for the requests in flight before it cuts their connections. */
const DRAIN_MS = 10_000;
/** Extra time for the jobs and the database to close after the drain, before the process gives up and exits 1. */
const CLOSE_MS = 10_000;
// V8's compiled code for the ~1,900 modules the build loads, kept on disk from one start to the next (Node's module
// compile cache, in NODE_COMPILE_CACHE or the OS temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a
// restart compiles only what changed (~0.25 s less CPU). It never fails the boot: without it, modules compile as before.
enableCompileCache();
const build = plainBuild(await import("./build/server/index.js"));
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
// The landing, the most requested page, is answered from a copy of the build with only its two routes (root and
// home): React Router then matches `/` against two routes instead of every one, four times per page (ADR 052). Only
// the exact path: anything else, /__manifest (the client's route discovery) and `.data` requests included, goes to
// the whole build.
const handleLandingRequest = createRequestHandler(routeSubsetBuild(build, "/"), "production");
const htmlCache = createHtmlCache({ ttlSeconds: Number(env.SSR_CACHE_SECONDS ?? 60), maxEntries: 200 });
/** After SIGTERM, how long to keep accepting while /readyz answers 503 (the proxy's cue to stop sending traffic). */
const SHUTDOWN_DELAY_MS = Number(env.SHUTDOWN_DELAY_MS || 0);
const routeIdFor = createRouteIdResolver(build.routes, {
  manifestPath: build.routeDiscovery?.manifestPath,
});

let stopping = false;
/**
 * Set once SHUTDOWN_DELAY_MS is over and the listener closes. Only from then on are idle keep-alive connections
 * closed: before, the proxy may still pick one of its pooled connections to this instance for a new request, and
 * closing it under that request resets it (the proxy cannot tell whether a POST got through, so it cannot retry).
 */
let draining = false;
/** Ends SHUTDOWN_DELAY_MS's wait early (a second signal). */
let skipShutdownDelay;
/** Set when the drain ends with requests still in flight (deadline or second signal): their connections are cut. */
let cutOff = false;
/** Responses not yet finished: on SIGTERM each is told to close its connection once it is sent. */
const inFlight = new Set();

const app = express();
app.disable("x-powered-by");
// Issue 25: every response carries X-Request-Id (the proxy's when it is safe, else a new one) and every log line the
// app writes while handling it names it (AsyncLocalStorage, app/lib/base/request-context.server.ts); each response
// is timed into clinica_http_request_duration_seconds under its route id, never its URL.
app.use((req, res, next) => {
  const requestId = entry.requestIdFor(req.headers["x-request-id"]);
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  const scope = entry.openRequestScope(requestId);
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    // An event stream's duration is its connection's life, not a response time (clinica_sse_open_connections).
    if (String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream")) return;
    const route = res.locals.routeId ?? (res.locals.staticFile ? "static" : "unmatched");
    entry.observeRequest(
      route,
      req.method,
      res.statusCode,
      Number(process.hrtime.bigint() - started) / 1e9,
      scope.dbSeconds,
    );
  });
  entry.runInRequestScope(scope, next);
});
app.use((req, res, next) => {
  inFlight.add(res);
  res.on("close", () => {
    inFlight.delete(res);
    // The keep-alive socket this response leaves behind would hold the process for its idle timeout.
    if (draining) setImmediate(() => server.closeIdleConnections());
  });
  if (stopping) res.setHeader("Connection", "close");
  next();
});
// No proxy unless TRUST_PROXY says so (hops, or the proxies' addresses): X-Forwarded-For is then ignored (issue 25).
let trustProxy;
try {
  trustProxy = trustProxySetting(env.TRUST_PROXY);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
app.set("trust proxy", trustProxy);
app.use(
  warnOnceOnUntrustedProxy({
    trusts: app.get("trust proxy fn"),
    warn: (line) => console.warn(JSON.stringify(line)),
  }),
);
// Event streams (chat rooms, the staff inbox) must reach the client as they are written, never held in a
// compression buffer (DESIGN decision 17); the root middleware's Cache-Control rewrite drops their no-transform.
app.use(
  compression({
    filter: (req, res) =>
      !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") &&
      compression.filter(req, res),
  }),
);
app.use((req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  // The chat room page may be framed (CSP frame-ancestors lists who); X-Frame-Options cannot express a list.
  if (!/^\/chat\/sala\/[^/]+\/?$/.test(req.path)) res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  // The Google popup comes back from the provider to these pages and must keep its opener to report the result; so
  // must demo mode's own provider (/google-demo), which the popup passes through on this origin.
  const oauthReturn =
    req.path.startsWith("/auth/callback") ||
    req.path.startsWith("/api/auth/callback") ||
    req.path.startsWith("/google-demo/");
  res.setHeader("Cross-Origin-Opener-Policy", oauthReturn ? "unsafe-none" : "same-origin-allow-popups");
  if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
});
app.use("/assets", (req, res, next) => {
  res.locals.staticFile = true;
  next();
});
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
// The other public files (favicon, media, robots…) are fixed at build time: list them once, so that a page or a
// `.data` request does not cost a file-system lookup on every hit.
const serveFile = express.static("build/client", { maxAge: "1h", index: false });
const publicFiles = new Set(
  readdirSync("build/client", { recursive: true, withFileTypes: true })
    .filter((file) => file.isFile())
    .map(
      (file) =>
        `/${path.relative("build/client", path.join(file.parentPath, file.name)).split(path.sep).join("/")}`,
    ),
);
app.use((req, res, next) => {
  if (!publicFiles.has(safeDecode(req.path))) return next();
  res.locals.staticFile = true;
  serveFile(req, res, next);
});

// Demo mode without Google credentials: the local OpenID provider stands in for Google at /google-demo, with one-click
// demo identities, so the popup, the callback and the staff's two-factor step can be shown (issue 24, item 19). Never
// outside demo mode (entry.googleDemoMount answers null), and the provider is a development dependency: without it
// the demo simply has no Google button's provider to reach, and says so. It is loaded by its first request, not at
// boot: oidc-provider's modules and the RSA key it makes are ~0.2 s of a restart's CPU, for pages only a visitor who
// picks "Google (demostración)" reaches; whether the package is installed is still told at boot, by resolving it.
const googleDemo = entry.googleDemoMount();
function googleDemoUnavailable(error) {
  console.warn(JSON.stringify({ level: 40, msg: "Google (demostración) unavailable", error: String(error) }));
}
if (googleDemo) {
  try {
    import.meta.resolve("oidc-provider");
    let provider;
    app.use(googleDemo.path, (req, res, next) => {
      provider ??= import("./app/integrations/google/oidc-fake.mjs").then(
        ({ createFakeOidcHandler }) => createFakeOidcHandler(googleDemo),
        (error) => void googleDemoUnavailable(error),
      );
      provider.then((handle) => (handle ? handle(req, res) : next())).catch(next);
    });
  } catch (error) {
    googleDemoUnavailable(error);
  }
}

/**
 * The server build with plain objects where it has module namespaces (the build itself, each route's module, the
 * entry's): React Router reads route modules' exports on every render (ServerRouter rebuilds its route tree), and a
 * read from a namespace object takes the slow path. The exports never change once loaded, so copies are the same.
 */
function plainBuild(imported) {
  const routes = {};
  for (const [id, route] of Object.entries(imported.routes))
    routes[id] = { ...route, module: { ...route.module } };
  return { ...imported, routes, entry: { ...imported.entry, module: { ...imported.entry.module } } };
}

function safeDecode(pathname) {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/**
 * The request's absolute URL, or null when its Host header (or a trusted proxy's X-Forwarded-Proto) cannot make one:
 * `Host: exa mple` is a client's mistake or a probe, answered 400, not a server error.
 */
function requestUrl(req) {
  try {
    return new URL(req.originalUrl || req.url, `${req.protocol}://${req.get("host") ?? ""}`);
  } catch {
    return null;
  }
}

/** Express request → Fetch Request, with the body capped at MAX_BODY_BYTES. */
function toFetchRequest(req, res, url) {
  const controller = new AbortController();
  // Aborted when the client goes away before the response is complete, not after every finished response (an
  // abort builds a DOMException with its stack trace and runs the signal's listeners: a cost per request).
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
    else if (value !== undefined) headers.set(name, value);
  }
  // The client IP as Express resolved it from the trusted proxies; whatever a client sent under this name is
  // overwritten (app/lib/client-ip.server.ts).
  headers.set("x-clinica-client-ip", req.ip ?? "unknown");
  headers.set("x-request-id", res.locals.requestId);
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
  await writeBody(response.body, res);
}

/** Methods a Fetch Request cannot carry: without this answer they would fail the bridge with a 500. */
const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

app.all("/{*splat}", async (req, res, next) => {
  res.locals.routeId = routeIdFor(req.path);
  try {
    const url = requestUrl(req);
    if (!url) {
      // One warning line, no stack: nothing failed on our side.
      console.warn(
        JSON.stringify({
          level: 40,
          msg: "invalid Host header",
          reqId: res.locals.requestId,
          method: req.method,
          host: String(req.get("host") ?? "").slice(0, 100),
        }),
      );
      return void res.status(400).type("text/plain; charset=utf-8").send("La solicitud no es válida.");
    }
    if (FETCH_FORBIDDEN_METHODS.has(req.method)) {
      return void res.status(405).type("text/plain; charset=utf-8").send("Método no permitido.");
    }
    if (Number(req.get("content-length") || 0) > MAX_BODY_BYTES) {
      return void res.status(413).type("text/plain; charset=utf-8").send("La solicitud es demasiado grande.");
    }
    const cacheKey = htmlCache.keyFor(req);
    const hit = cacheKey && htmlCache.get(cacheKey);
    if (hit) return void htmlCache.send(res, hit, entry.cspNonce());

    const handle = url.pathname === "/" ? handleLandingRequest : handleRequest;
    const response = await handle(toFetchRequest(req, res, url), new RouterContextProvider());
    if (res.locals.bodyTooLarge) {
      return void res.status(413).type("text/plain; charset=utf-8").send("La solicitud es demasiado grande.");
    }
    if (cacheKey && htmlCache.cacheable(response)) {
      const stored = await htmlCache.store(cacheKey, response);
      return void htmlCache.send(res, stored, entry.cspNonce());
    }
    await sendFetchResponse(res, response);
  } catch (error) {
    next(error);
  }
});

app.use((error, req, res, _next) => {
  const tooLarge = error instanceof Error && error.message === "body too large";
  if (!tooLarge) {
    const err =
      error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : error;
    console.error(
      JSON.stringify({
        level: 50,
        msg: "request failed",
        reqId: res.locals.requestId,
        method: req.method,
        err,
      }),
    );
  }
  if (res.headersSent) return void res.end();
  res
    .status(tooLarge ? 413 : 500)
    .type("text/plain; charset=utf-8")
    .send(tooLarge ? "La solicitud es demasiado grande." : "Error inesperado. Intenta nuevamente.");
});

const server = app.listen(port, host, () => {
  console.log(JSON.stringify({ level: 30, msg: `listening on http://localhost:${port}`, port }));
  // Ready and answering: only now the embedded database's VACUUM ANALYZE starts, between requests (entry.serving).
  entry.serving();
});

// METRICS_PORT: the Prometheus scrape on a loopback-only listener (no token: only this host reaches it); /metrics on
// the main port still needs METRICS_TOKEN.
if (env.METRICS_PORT) {
  const metricsServer = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("No encontrado.");
      return;
    }
    entry.scrapeMetrics().then(
      ({ contentType, body }) => res.writeHead(200, { "Content-Type": contentType }).end(body),
      (error) => {
        console.error(JSON.stringify({ level: 50, msg: "metrics scrape failed", err: String(error) }));
        res.writeHead(500).end();
      },
    );
  });
  metricsServer.listen(Number(env.METRICS_PORT), "127.0.0.1");
  metricsServer.unref();
}

/**
 * SIGTERM/SIGINT: stop accepting connections, let the requests in flight finish (up to DRAIN_MS), stop the jobs,
 * close the database, exit 0. If the drain deadline cuts requests off, or closing fails or hangs, the exit code is 1
 * so that the supervisor's log shows the shutdown was not clean. A second signal cuts the drain short.
 */
async function stop(signal) {
  if (stopping) {
    skipShutdownDelay?.();
    console.log(JSON.stringify({ level: 40, msg: `${signal} again: closing the remaining connections` }));
    cutOff ||= inFlight.size > 0;
    server.closeAllConnections();
    return;
  }
  stopping = true;
  // /readyz answers 503 from now on, so that a proxy that still checks it takes this instance out first.
  entry.beginShutdown();
  console.log(JSON.stringify({ level: 30, msg: `${signal}: shutting down`, inFlight: inFlight.size }));
  const giveUp = setTimeout(
    () => {
      console.error(JSON.stringify({ level: 50, msg: "shutdown did not finish in time; exiting" }));
      process.exit(1);
    },
    SHUTDOWN_DELAY_MS + DRAIN_MS + CLOSE_MS,
  );
  giveUp.unref();
  if (SHUTDOWN_DELAY_MS > 0) {
    // Still listening (each response closes its connection) while the proxy sees /readyz fail; a second signal
    // ends the wait.
    await new Promise((resolve) => {
      skipShutdownDelay = resolve;
      setTimeout(resolve, SHUTDOWN_DELAY_MS).unref();
    });
  }

  for (const res of inFlight) {
    // Event streams never finish on their own; their clients reconnect (Last-Event-ID) to an instance that is up.
    if (String(res.getHeader("content-type") ?? "").startsWith("text/event-stream")) res.destroy();
    else if (!res.headersSent) res.setHeader("Connection", "close");
  }
  draining = true;
  const drained = new Promise((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = setTimeout(() => {
    cutOff ||= inFlight.size > 0;
    console.error(JSON.stringify({ level: 40, msg: "drain deadline reached", cut: inFlight.size }));
    server.closeAllConnections();
  }, DRAIN_MS);
  await drained;
  clearTimeout(deadline);

  let exitCode = cutOff ? 1 : 0;
  try {
    await entry.shutdown();
  } catch (error) {
    console.error(error);
    exitCode = 1;
  }
  process.exit(exitCode);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
