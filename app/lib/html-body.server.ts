import { EventEmitter } from "node:events";
import type { HtmlRewrite } from "./head-rewrite.server";

/**
 * What React's renderToPipeableStream writes a document into: the body of the Response, as a web stream, with no
 * Node stream in between (issue 25: a Transform, a PassThrough and React Router's Readable-to-web adapter per
 * request, each moving every 4 KiB piece, were a measurable share of a page). React needs only `write`, `end`,
 * `flush` and the `drain`, `error` and `close` events of its destination; each `flush()` ends a batch, which goes
 * into the body as one chunk (`rewrite` decides what it becomes).
 *
 * Backpressure: `write` answers false once the body holds its high-water mark unread, and `drain` follows the
 * reader's next pull. Cancelling the body (the visitor left) emits `close`, on which React abandons the render.
 */
export class HtmlBody extends EventEmitter {
  readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private closed = false;
  private waitingForDrain = false;

  constructor(
    private readonly rewrite: HtmlRewrite,
    private readonly onEnd: () => void,
    highWaterMark = 64 * 1024,
    /** How a piece React writes as a string becomes bytes (the preparer keeps its long strings' bytes). */
    private readonly encode: (piece: string) => Uint8Array = (piece) => Buffer.from(piece),
  ) {
    super();
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => {
          if (!this.waitingForDrain) return;
          this.waitingForDrain = false;
          this.emit("drain");
        },
        cancel: () => {
          this.closed = true;
          this.emit("close");
        },
      },
      { highWaterMark, size: (chunk) => chunk.byteLength },
    );
  }

  write(piece: Uint8Array | string): boolean {
    if (this.closed) return false;
    this.rewrite.hold(typeof piece === "string" ? this.encode(piece) : piece);
    return this.hasRoom();
  }

  /** React calls this after each batch of writes. */
  flush(): void {
    if (this.closed) return;
    const chunk = this.rewrite.release();
    if (chunk) this.controller.enqueue(chunk);
  }

  end(): void {
    if (this.closed) return;
    const chunk = this.rewrite.finish();
    if (chunk) this.controller.enqueue(chunk);
    this.closed = true;
    this.controller.close();
    this.onEnd();
  }

  /** React's render failed after the shell was sent: the body errors, so the response is cut short. */
  destroy(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.controller.error(error ?? new Error("render aborted"));
  }

  private hasRoom(): boolean {
    if ((this.controller.desiredSize ?? 0) > 0) return true;
    this.waitingForDrain = true;
    return false;
  }
}
