import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { MODULES_AFTER_PAINT_ID, modulesAfterFirstPaint } from "./head-rewrite.server";
import { HtmlBody } from "./html-body.server";

/**
 * What the response's body holds when React writes `batches` into it (each batch's pieces, then its flush()), and
 * the body's chunks. Pieces are bytes, as React writes them (`string` pieces are encoded first).
 */
async function throughBody(batches: Array<Array<string | Uint8Array>>, options = { passThrough: false }) {
  let ended = false;
  const html = new HtmlBody(modulesAfterFirstPaint(options), () => (ended = true));
  for (const batch of batches) {
    for (const piece of batch) html.write(typeof piece === "string" ? Buffer.from(piece) : piece);
    html.flush();
  }
  html.end();
  expect(ended).toBe(true);
  const chunks: Buffer[] = [];
  for await (const chunk of html.body) chunks.push(Buffer.from(chunk));
  return { text: Buffer.concat(chunks).toString("utf8"), chunks: chunks.length };
}

/** The document written in `pieces` with no flush() between them (everything comes out at the end). */
const rewrite = async (pieces: string[]) => {
  let ended = false;
  const html = new HtmlBody(modulesAfterFirstPaint(), () => (ended = true));
  for (const piece of pieces) html.write(Buffer.from(piece));
  html.end();
  expect(ended).toBe(true);
  return new Response(html.body).text();
};

const moduleScript = 'import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");';

const documentChunks = [
  '<html><head><link rel="stylesheet" href="/app.css"/><link rel="modulep',
  'reload" href="/assets/entry.js" nonce="abc"/><link rel="modulepreload" href="/assets/root.js" nonce="abc"/></he',
  'ad><body><main>hola</main><link rel="modulepreload" href="/assets/late.js"/><script nonce="abc" type="mod',
  `ule" async="">${moduleScript}</script><script nonce="abc">$RC("B:0","S:0")</script>`,
  "</body></html>",
];

/** The text of the inline script that replaced the module script. */
function bootstrapOf(output: string): string {
  const script = new RegExp(`id="${MODULES_AFTER_PAINT_ID}">([\\s\\S]*?)</script>`).exec(output)?.[1];
  if (script === undefined) throw new Error("no bootstrap script in the output");
  return script;
}

/** Runs the rewritten bootstrap against a minimal DOM and returns what it added, and when. */
function runBootstrap(bootstrap: string, priorityImage: { complete: boolean } | null) {
  const added: Array<{ tag: string; props: Record<string, unknown> }> = [];
  const frames: Array<() => void> = [];
  const timers: Array<() => void> = [];
  const imageListeners: Record<string, () => void> = {};
  const element = (tag: string) => {
    const props: Record<string, unknown> = {};
    added.push({ tag, props });
    return props;
  };
  const document = {
    currentScript: { nonce: "abc" },
    createElement: element,
    head: { appendChild: () => undefined },
    body: { appendChild: () => undefined },
    querySelector: (selector: string) => {
      expect(selector).toBe('img[fetchpriority="high"]');
      return priorityImage
        ? {
            ...priorityImage,
            addEventListener: (type: string, listener: () => void) => (imageListeners[type] = listener),
          }
        : null;
    },
  };
  runInNewContext(bootstrap, {
    document,
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    setTimeout: (callback: () => void) => timers.push(callback),
  });
  const paint = () => {
    for (const frame of frames.splice(0)) frame();
    for (const timer of timers.splice(0)) timer();
  };
  const fire = (type: "load" | "error") => {
    const listener = imageListeners[type];
    if (!listener) throw new Error(`no ${type} listener on the priority image`);
    listener();
  };
  return { added, paint, fire };
}

it("moves the head's module preloads and the module script behind an inline bootstrap, across chunks", async () => {
  const output = await rewrite(documentChunks);
  expect(output).toContain('<head><link rel="stylesheet" href="/app.css"/></head>');
  expect(output).not.toMatch(/<link rel="modulepreload" href="\/assets\/(entry|root)/);
  // Only the head is cleaned; anything later in the body is left as it was.
  expect(output).toContain('<main>hola</main><link rel="modulepreload" href="/assets/late.js"/>');
  expect(output).not.toContain('type="module"');
  expect(output).toContain(`<script nonce="abc" id="${MODULES_AFTER_PAINT_ID}">`);
  expect(output).toContain('<script nonce="abc">$RC("B:0","S:0")</script></body></html>');
});

it("adds the same preloads and module script once the priority image has loaded and a frame was painted", async () => {
  const output = await rewrite(documentChunks);
  const bootstrap = bootstrapOf(output);

  const loading = runBootstrap(bootstrap, { complete: false });
  loading.paint();
  expect(loading.added).toEqual([]);
  loading.fire("load");
  expect(loading.added).toEqual([]);
  loading.paint();
  expect(loading.added).toEqual([
    { tag: "link", props: { rel: "modulepreload", href: "/assets/entry.js", nonce: "abc" } },
    { tag: "link", props: { rel: "modulepreload", href: "/assets/root.js", nonce: "abc" } },
    { tag: "script", props: { type: "module", nonce: "abc", textContent: moduleScript } },
  ]);

  // A failed image does not hold the page back, and neither does a page without a priority image.
  const failed = runBootstrap(bootstrap, { complete: false });
  failed.fire("error");
  failed.paint();
  expect(failed.added).toHaveLength(3);
  const none = runBootstrap(bootstrap, null);
  expect(none.added).toEqual([]);
  none.paint();
  expect(none.added).toHaveLength(3);
  const loaded = runBootstrap(bootstrap, { complete: true });
  loaded.paint();
  expect(loaded.added).toHaveLength(3);
});

it("escapes every < of the module text, so nothing in it can end the inline script", async () => {
  const output = await rewrite([
    '<html><head></head><body><script type="module">if (a < b) log("<\\/script><!--");</script></body></html>',
  ]);
  const bootstrap = bootstrapOf(output);
  expect(bootstrap).toContain('"if (a \\u003c b) log(\\"\\u003c\\\\/script>\\u003c!--\\");"');
  expect(bootstrap.slice(bootstrap.indexOf("}([")).includes("<")).toBe(false);
});

it("passes a document without a head or a module script through", async () => {
  expect(await rewrite(["<p>hola</p>"])).toBe("<p>hola</p>");
  expect(await rewrite(["<html><head></head>", "<body><p>hola</p></body></html>"])).toBe(
    "<html><head></head><body><p>hola</p></body></html>",
  );
});

it("gives the same document whatever the chunking, down to one character at a time, with scripts before it", async () => {
  const whole = documentChunks
    .join("")
    .replace(
      "<main>hola</main>",
      '<main>hola</main><script nonce="abc">window.__ctx={"a":"\\u003cscript"}</script>',
    );
  const expected = await rewrite([whole]);
  expect(expected).toContain(`id="${MODULES_AFTER_PAINT_ID}"`);
  expect(expected).toContain('<script nonce="abc">window.__ctx=');
  expect(await rewrite([...whole])).toBe(expected);
  for (const size of [5, 7, 64]) {
    const chunks = whole.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!;
    expect(await rewrite(chunks)).toBe(expected);
  }
});

it("sends each of React's batches as one chunk when it flushes, rewritten as when it is sent all at once", async () => {
  const whole = documentChunks.join("");
  const expected = await rewrite([whole]);
  // React's shell in pieces, then a streamed boundary in its own batch, then the end of the document.
  const shell = documentChunks.slice(0, 4);
  const boundary = ['<div hidden id="S:1"><script nonce="abc">$RC("B:1","S:1")</script></div>'];
  const { text, chunks } = await throughBody([shell, boundary, ["</body></html>"]]);
  expect(text).toBe(expected.replace("</body></html>", `${boundary[0]}</body></html>`));
  expect(chunks).toBe(3);
});

it("gives the same document when React's batches end anywhere, even inside a tag or a character", async () => {
  const whole = documentChunks.join("").replace("<main>hola</main>", "<main>¡hola, señor Muñoz! ✓</main>");
  const expected = await rewrite([whole]);
  const bytes = Buffer.from(whole);
  for (const size of [3, 7, 64]) {
    const batches: Uint8Array[][] = [];
    for (let at = 0; at < bytes.length; at += size) batches.push([bytes.subarray(at, at + size)]);
    expect((await throughBody(batches)).text).toBe(expected);
  }
});

it("passes the document through unchanged when told to (the dev server), still one chunk per batch", async () => {
  const { text, chunks } = await throughBody([documentChunks.slice(0, 4), documentChunks.slice(4)], {
    passThrough: true,
  });
  expect(text).toBe(documentChunks.join(""));
  expect(chunks).toBe(2);
});
