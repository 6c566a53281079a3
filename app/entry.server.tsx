import { randomUUID } from "node:crypto";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { modulesAfterFirstPaint } from "~/lib/head-rewrite.server";
import { HtmlBody } from "~/lib/html-body.server";
import { NonceContext } from "~/lib/nonce";
import { MarkupPreparerContext } from "~/lib/prepared-markup";
import { prepareMarkup } from "~/lib/prepared-markup.server";
import {
  contentSecurityPolicy,
  cspNonce,
  formActionFor,
  FRAMEABLE_PATH,
  frameAncestorsFor,
} from "~/lib/security-headers.server";
import { chatAllowedOrigins, env, webpayFormOrigins } from "~/lib/base/env.server";
import { loggableUrl } from "~/lib/loggable-url";
import { logger } from "~/lib/base/logger.server";
import { appDraining, appReady, appServing, appStopped } from "~/startup/app-ready.server";
import { chooseRequestId } from "~/domain/observability";
import { observeRequest } from "~/lib/metrics.server";

/** server.mjs opens each request's scope (its id on every log line) and reports each response to /metrics. */
export { openRequestScope, runInRequestScope } from "~/lib/base/request-context.server";
export { observeRequest };
/** server.mjs swaps a cached page's nonce for a fresh one of these. */
export { cspNonce };
/** METRICS_PORT: server.mjs serves the same scrape on a loopback-only listener, without the token. */
export { scrapeMetrics } from "~/features/operations/metrics-service.server";

/** `npm run retention` reaches the app through the server build (scripts/retention.mjs). */
export { retentionCommand } from "~/startup/retention-command.server";
/** `npm run backup` and `npm run restore` likewise (scripts/backup.mjs, scripts/restore.mjs; ADR 046). */
export { backupCommand, restoreCommand } from "~/startup/backup-command.server";
/** Demo mode's "Google (demostración)": server.mjs mounts the local OpenID provider this describes (or nothing). */
export { googleDemoMount } from "~/startup/google-demo.server";

export const streamTimeout = 5_000;

/** A string React writes into the page: a prepared part's HTML comes with its bytes (ADR 055). */
const encodePiece = (piece: string) => prepareMarkup.bytes(piece) ?? Buffer.from(piece);

/** Called by server.mjs before it listens: validates the env, opens the database and applies migrations. */
export async function startup() {
  env();
  await appReady();
}

/** Called by server.mjs once it listens: the work that must not delay the first answer starts (maintenance). */
export function serving() {
  appServing();
}

/** The request's id: the proxy's X-Request-Id when it is safe (domain/observability.ts), else a new one. */
export function requestIdFor(incoming: string | string[] | undefined): string {
  return chooseRequestId(incoming, randomUUID);
}

/** Called by server.mjs as SIGTERM's drain begins: /readyz answers 503 from then on. */
export function beginShutdown() {
  appDraining();
}

/** Called by server.mjs on SIGTERM/SIGINT once the requests in flight are done. */
export async function shutdown() {
  await appStopped();
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  logger.error({ err: error, url: loggableUrl(request.url), method: request.method }, "request failed");
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // A fresh nonce per document; server.mjs swaps it again when it serves a cached copy.
  const nonce = cspNonce();
  // Parsed once: ServerRouter takes the URL object as it is (a string it would parse again).
  const url = new URL(request.url);
  const pathname = url.pathname;
  // The chat room page alone may be framed: only it needs CHAT_ALLOWED_ORIGINS parsed.
  const frameAncestors = frameAncestorsFor(
    pathname,
    FRAMEABLE_PATH.test(pathname) ? chatAllowedOrigins() : [],
  );
  responseHeaders.set(
    "Content-Security-Policy",
    contentSecurityPolicy(
      nonce,
      import.meta.env.DEV,
      frameAncestors,
      formActionFor(pathname, webpayFormOrigins()),
    ),
  );

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <MarkupPreparerContext value={prepareMarkup}>
          <ServerRouter context={routerContext} url={url} nonce={nonce} />
        </MarkupPreparerContext>
      </NonceContext>,
      {
        nonce,
        // React outlines a finished Suspense boundary once 12,800 bytes have gone out before it: it sends the part in
        // a `<div hidden>` at the end and moves it into place with an inline script. The landing's lead form (ADR
        // 022) came 41 KB into the page, so a visitor without JavaScript never saw it. Every part finished during
        // the render stays where it is; a part that really waits (a deferred loader promise) still streams later.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          // The dev server's own scripts (HMR, React Refresh) must run as Vite wrote them: batching only there.
          const rewrite = modulesAfterFirstPaint({ passThrough: import.meta.env.DEV });
          const html = new HtmlBody(
            rewrite,
            () => {
              clearTimeout(timeoutId);
              timeoutId = undefined;
            },
            undefined,
            encodePiece,
          );
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(html as unknown as NodeJS.WritableStream);
          resolve(new Response(html.body, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, "streaming render failed");
        },
      },
    );
  });
}
