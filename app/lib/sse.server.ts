/**
 * Server-Sent Events responses: the frame format (`id:`, `event:`, `data:`), the headers, keep-alives and one
 * close path however a stream ends (client gone, body cancelled, the producer done, a failed session check).
 */

import { sseClosed, sseOpened } from "~/lib/metrics.server";

const encoder = new TextEncoder();

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform: the compression middleware leaves the stream alone instead of buffering it.
  "Cache-Control": "no-store, no-transform",
  // nginx and similar proxies pass each event on at once.
  "X-Accel-Buffering": "no",
};

/** How long a client waits before reconnecting, sent first on every stream. */
const RETRY_MS = 2000;

/** One event, encoded. Without `id` the event does not move the client's Last-Event-ID. */
export function sseFrame(event: { event?: string; id?: string | number; data: unknown }): Uint8Array {
  const id = event.id === undefined ? "" : `id: ${event.id}\n`;
  const name = event.event === undefined ? "" : `event: ${event.event}\n`;
  return encoder.encode(`${id}${name}data: ${JSON.stringify(event.data)}\n\n`);
}

const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");

/**
 * Sent once the producer has started (subscribed to what it streams): from here on nothing published is missed, so a
 * client (or a test) that must not lose the first events waits for it before acting. Clients ignore the name.
 */
export const READY_EVENT = "ready";
const READY = sseFrame({ event: READY_EVENT, data: {} });

export interface SseSink {
  /** Enqueues an encoded frame (see `sseFrame`); ignored once the stream is closed. */
  send(frame: Uint8Array): void;
  /** Ends the stream (idempotent). */
  close(): void;
  readonly closed: boolean;
}

export interface SseOptions {
  /**
   * The request: its signal aborting (the client left) closes the stream. The stream holds the request itself, not
   * only its signal: a Request that is garbage-collected no longer hears its parent signal's abort (undici follows
   * the signal through a WeakRef), and a stream outlives the handler that received the request.
   */
  request: Request;
  /** A comment line this often, so proxies keep the connection open. */
  keepAliveMs: number;
  /**
   * Asked at each keep-alive before it is sent; false (or a failure) ends the stream instead. It decides by itself
   * when it is asked (e.g. a session check).
   */
  stillAllowed?: () => Promise<boolean>;
  /** Starts producing; returns what stops it. Not called when the client left before the stream started. */
  start(sink: SseSink): (() => void) | void;
  /** Called once when the stream ends, however it ends. */
  onEnd?: () => void;
}

export function sseResponse(options: SseOptions): Response {
  const { request } = options;
  let stopProducer: (() => void) | void = undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  /** Counted in clinica_sse_open_connections from the moment it produces until it ends (issue 25). */
  let counted = false;
  const end = () => {
    if (closed) return;
    closed = true;
    if (counted) sseClosed();
    // Released with the stream (see `request` above).
    void request;
    stopProducer?.();
    clearInterval(heartbeat);
    options.onEnd?.();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const sink: SseSink = {
        send(frame) {
          if (closed) return;
          try {
            controller.enqueue(frame);
          } catch {
            end();
          }
        },
        close() {
          if (closed) return;
          end();
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        },
        get closed() {
          return closed;
        },
      };
      // A client that left before the stream started: nothing to produce.
      if (request.signal.aborted) return sink.close();
      controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n\n`));
      counted = true;
      sseOpened();
      stopProducer = options.start(sink);
      // The producer may have closed the stream while starting.
      if (closed) {
        stopProducer?.();
        return;
      }
      controller.enqueue(READY);
      heartbeat = setInterval(() => {
        if (closed) return;
        const check = options.stillAllowed;
        if (!check) return sink.send(KEEP_ALIVE);
        check().then(
          (allowed) => (allowed ? sink.send(KEEP_ALIVE) : sink.close()),
          () => sink.close(),
        );
      }, options.keepAliveMs);
      request.signal.addEventListener("abort", () => sink.close(), { once: true });
    },
    cancel: end,
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
