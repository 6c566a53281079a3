import { expect, it } from "vitest";
import { modulesAfterFirstPaint } from "./head-rewrite.server";
import { HtmlBody } from "./html-body.server";

it("holds React back once the body is full until it is read, and stops the render if the visitor leaves", async () => {
  const html = new HtmlBody(modulesAfterFirstPaint({ passThrough: true }), () => undefined, 10);
  let drained = 0;
  let closed = 0;
  html.on("drain", () => drained++);
  html.on("close", () => closed++);
  expect(html.write(Buffer.from("<p>1234567890</p>"))).toBe(true);
  html.flush();
  // The body now holds more than its high-water mark, unread: React is told to wait.
  expect(html.write(Buffer.from("<p>más</p>"))).toBe(false);
  const reader = html.body.getReader();
  await reader.read();
  await new Promise((resolve) => setImmediate(resolve));
  expect(drained).toBe(1);
  await reader.cancel();
  expect(closed).toBe(1);
  // A later write goes nowhere.
  expect(html.write(Buffer.from("<p>tarde</p>"))).toBe(false);
});
