import { Transform } from "node:stream";

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

/**
 * Starts the page's JavaScript after its first paint (ADR 022). React Router puts a module preload for every
 * module of the matched routes in <head> and one inline module script that imports them; both start fetching at
 * once, so ~130 KiB of modules share a slow mobile link with the stylesheet, the document and the largest image.
 * This moves the preloads out of <head> and replaces the module script with a small inline script that adds both,
 * unchanged, once the priority image has arrived and a frame has been painted. The server-rendered page works
 * without JavaScript (ADR 022), so until then links and forms behave as they do before hydration.
 * Only the document's head and the first module script are rewritten; the rest streams through untouched.
 */
export function modulesAfterFirstPaint(): Transform {
  let pending = "";
  let stage: "head" | "body" | "done" = "head";
  const preloads: string[] = [];

  function rewriteHead(head: string) {
    return head.replace(MODULE_PRELOAD, (link) => {
      const href = HREF.exec(link)?.[1];
      if (!href) return link;
      preloads.push(href);
      return "";
    });
  }

  function rewriteBody(body: string): string | null {
    const match = MODULE_SCRIPT.exec(body);
    if (!match) return null;
    const [script, attributes = "", code = ""] = match;
    const nonce = NONCE.exec(attributes)?.[1];
    const open = `<script${nonce === undefined ? "" : ` nonce="${nonce}"`} id="${MODULES_AFTER_PAINT_ID}">`;
    const call = `${BOOTSTRAP}(${inlineJson(preloads)},${inlineJson(code)})`;
    return body.replace(script, () => `${open}${call}</script>`);
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (stage === "done") return callback(null, chunk);
      pending += chunk.toString("utf8");
      let out = "";
      if (stage === "head") {
        const end = pending.indexOf("</head>");
        if (end === -1) return callback();
        out = rewriteHead(pending.slice(0, end));
        pending = pending.slice(end);
        stage = "body";
      }
      // The module script comes last in the body: only a chunk that closes a script can complete it, and only the
      // text from the last "<script" on can still belong to it, so the rest goes out at once. (Matching the whole
      // body so far on every chunk cost a tenth of a render.)
      const body = pending.includes("</script>") ? rewriteBody(pending) : null;
      if (body !== null) {
        stage = "done";
        out += body;
        pending = "";
      } else {
        const open = pending.lastIndexOf("<script");
        // Without one, keep a tail as long as "<script" minus one: the tag may be split across chunks.
        const cut = open === -1 ? Math.max(0, pending.length - 6) : open;
        out += pending.slice(0, cut);
        pending = pending.slice(cut);
      }
      callback(null, out || undefined);
    },
    flush(callback) {
      callback(null, pending || undefined);
    },
  });
}
