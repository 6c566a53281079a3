/** The id of the inline script that starts the app's modules; `scripts/bench-web.mjs` reads its module list. */
export const MODULES_AFTER_PAINT_ID = "modules-after-paint";

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const HREF = /\shref="([^"]+)"/;
// React Router's inline module script (no src) in the body.
const MODULE_SCRIPT =
  /<script((?:\s(?!src=)[\w-]+(?:="[^"]*")?)*\stype="module"(?:\s(?!src=)[\w-]+(?:="[^"]*")?)*)>([\s\S]*?)<\/script>/;
const NONCE = /\snonce="([^"]*)"/;

/**
 * Runs in the page: once the priority image (ADR 014) has loaded or failed, or at once when there is none, waits
 * for the next frame to be painted, then adds the module preloads and the router's module script as they were.
 * `m`: the preloaded modules, `c`: the module script's text.
 */
const BOOTSTRAP = [
  "(function(m,c){var d=document,n=d.currentScript.nonce;",
  "function s(){m.forEach(function(h){var l=d.createElement('link');l.rel='modulepreload';l.href=h;l.nonce=n;",
  "d.head.appendChild(l)});var e=d.createElement('script');e.type='module';e.nonce=n;e.textContent=c;",
  "d.body.appendChild(e)}",
  "function p(){requestAnimationFrame(function(){setTimeout(s,0)})}",
  "var i=d.querySelector('img[fetchpriority=\"high\"]');",
  "if(i&&!i.complete){i.addEventListener('load',p);i.addEventListener('error',p)}else p()})",
].join("");

/** A JSON value that is safe inside an inline <script> (no `</script>`, no `<!--`). */
const inlineJson = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");

/** The last module script's text and its JSON: a route's module script is the same on every request. */
let lastCode: string | undefined;
let lastCodeJson = "";
function codeJson(code: string): string {
  if (code !== lastCode) {
    lastCodeJson = inlineJson(code);
    lastCode = code;
  }
  return lastCodeJson;
}

const EMPTY: Buffer = Buffer.alloc(0);
const HEAD_END = "</head>";
const SCRIPT_OPEN = "<script";
const SCRIPT_CLOSE = "</script>";
/** A whole script element (from "<script" to its first "</script>") that is the router's inline module script. */
const WHOLE_MODULE_SCRIPT = new RegExp(`^${MODULE_SCRIPT.source}$`);

/** Whether the byte after "<script" at `at` ends the tag name (so it is not "<scriptx"); undefined: not here yet. */
function scriptTagAt(bytes: Buffer, at: number): boolean | undefined {
  const next = bytes[at + SCRIPT_OPEN.length];
  if (next === undefined) return undefined;
  // ">", "/", or whitespace (space, tab, line feed, form feed, carriage return).
  return next === 0x3e || next === 0x2f || next === 0x20 || (next >= 0x09 && next <= 0x0d);
}

/** One document's rewrite: React's pieces go in as it writes them, each complete batch comes out as one chunk. */
export interface HtmlRewrite {
  /** A piece React wrote (kept until its batch is complete; React never writes into a piece it handed over). */
  hold(piece: Uint8Array): void;
  /** React finished a batch (its `flush()`): what to send now, if anything. */
  release(): Buffer | undefined;
  /** The document is complete: everything still kept. */
  finish(): Buffer | undefined;
}

/**
 * Starts the page's JavaScript after its first paint (ADR 022). React Router puts a module preload for every
 * module of the matched routes in <head> and one inline module script that imports them; both start fetching at
 * once, so ~130 KiB of modules share a slow mobile link with the stylesheet, the document and the largest image.
 * This moves the preloads out of <head> and replaces the module script with a small inline script that adds both,
 * unchanged, once the priority image has arrived and a frame has been painted. The server-rendered page works
 * without JavaScript (ADR 022), so until then links and forms behave as they do before hydration.
 * Only the document's head and the first module script are rewritten; the rest streams through untouched.
 *
 * React writes a document in 4 KiB pieces and calls its destination's `flush()` after each batch (the shell, then
 * each Suspense boundary that completes): the pieces are held until then and go on as one chunk
 * (lib/html-body.server.ts), so the response moves one chunk per batch rather than some fifteen (issue 25's
 * profile: a tenth of a request was spent moving the pieces). Only the head and the script elements are decoded to
 * text; the rest stays bytes. `passThrough`: no rewrite (the dev server's scripts must run as Vite wrote them), the
 * batching only.
 */
export function modulesAfterFirstPaint({ passThrough = false } = {}): HtmlRewrite {
  /** Bytes received but not sent: the head until it is complete, or a script element that may still be cut. */
  let pending: Buffer = EMPTY;
  let stage: "head" | "body" | "done" = passThrough ? "done" : "head";
  const preloads: string[] = [];
  let held: Uint8Array[] = [];
  let heldBytes = 0;

  function rewriteHead(head: string) {
    return head.replace(MODULE_PRELOAD, (link) => {
      const href = HREF.exec(link)?.[1];
      if (!href) return link;
      preloads.push(href);
      return "";
    });
  }

  /** The bootstrap script that stands for the module script `element` (a whole element), or null if it is not one. */
  function bootstrapFor(element: string): string | null {
    const match = WHOLE_MODULE_SCRIPT.exec(element);
    if (!match) return null;
    const [, attributes = "", code = ""] = match;
    const nonce = NONCE.exec(attributes)?.[1];
    const open = `<script${nonce === undefined ? "" : ` nonce="${nonce}"`} id="${MODULES_AFTER_PAINT_ID}">`;
    return `${open}${BOOTSTRAP}(${inlineJson(preloads)},${codeJson(code)})</script>`;
  }

  /** What to send for the bytes received so far (`pending` keeps what cannot be decided yet). */
  function rewrite(bytes: Buffer): Buffer[] {
    let text: Buffer = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
    pending = EMPTY;
    const out: Buffer[] = [];
    if (stage === "head") {
      const end = text.indexOf(HEAD_END);
      if (end === -1) {
        pending = text;
        return out;
      }
      out.push(Buffer.from(rewriteHead(text.toString("utf8", 0, end))));
      text = text.subarray(end);
      stage = "body";
    }
    // The module script comes last in the body. Script elements are looked at one by one, whole; React escapes
    // "<" in text and React Router in its inline JSON, so "<script" only ever starts a tag.
    let from = 0;
    for (;;) {
      const open = text.indexOf(SCRIPT_OPEN, from);
      if (open === -1) {
        // Keep a tail as long as "<script" minus one: the tag may be split between batches.
        const cut = Math.max(from, text.length - (SCRIPT_OPEN.length - 1));
        out.push(text.subarray(0, cut));
        pending = text.subarray(cut);
        return out;
      }
      const isScript = scriptTagAt(text, open);
      const close = isScript ? text.indexOf(SCRIPT_CLOSE, open) : -1;
      if (isScript === undefined || (isScript && close === -1)) {
        // Not complete yet: send what comes before it and wait for the next batch.
        out.push(text.subarray(0, open));
        pending = text.subarray(open);
        return out;
      }
      if (!isScript) {
        from = open + SCRIPT_OPEN.length;
        continue;
      }
      const end = close + SCRIPT_CLOSE.length;
      const bootstrap = bootstrapFor(text.toString("utf8", open, end));
      if (bootstrap !== null) {
        stage = "done";
        out.push(text.subarray(0, open), Buffer.from(bootstrap), text.subarray(end));
        return out;
      }
      from = end;
    }
  }

  function release(): Buffer | undefined {
    if (heldBytes === 0) return undefined;
    const first = held[0]!;
    const bytes =
      held.length === 1
        ? Buffer.from(first.buffer, first.byteOffset, first.byteLength)
        : Buffer.concat(held, heldBytes);
    held = [];
    heldBytes = 0;
    if (stage === "done") return bytes;
    const pieces = rewrite(bytes).filter((piece) => piece.length > 0);
    if (pieces.length === 0) return undefined;
    return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
  }

  return {
    hold(piece) {
      if (piece.byteLength === 0) return;
      held.push(piece);
      heldBytes += piece.byteLength;
    },
    release,
    finish() {
      const last = release();
      const rest = pending;
      pending = EMPTY;
      if (rest.length === 0) return last;
      return last ? Buffer.concat([last, rest]) : rest;
    },
  };
}
