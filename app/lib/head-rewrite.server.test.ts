import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { expect, it } from "vitest";
import { lowPriorityModulePreloads } from "./head-rewrite.server";

it("lowers module preloads in the head only, even when split across chunks", async () => {
  const chunks = [
    '<html><head><link rel="modulep',
    'reload" href="/a.js"/></he',
    'ad><body><link rel="modulepreload" href="/b.js"/></body>',
  ];
  const output = await text(
    Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(lowPriorityModulePreloads()),
  );
  expect(output).toBe(
    '<html><head><link rel="modulepreload" fetchpriority="low" href="/a.js"/></head><body><link rel="modulepreload" href="/b.js"/></body>',
  );
});

it("passes a document without a head through", async () => {
  const output = await text(Readable.from([Buffer.from("<p>hola</p>")]).pipe(lowPriorityModulePreloads()));
  expect(output).toBe("<p>hola</p>");
});
