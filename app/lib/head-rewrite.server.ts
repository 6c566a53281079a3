import { Transform } from "node:stream";

/**
 * Marks the route-module preloads in <head> as low priority, so the stylesheet, the document and the largest image
 * get the bandwidth first on slow mobile links; the modules are still fetched early, only after those (DESIGN §5:
 * Lighthouse mobile ≥ 98). Everything after </head> streams through untouched.
 */
export function lowPriorityModulePreloads(): Transform {
  let head = "";
  let done = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      head += chunk.toString("utf8");
      const end = head.indexOf("</head>");
      if (end === -1) return callback();
      done = true;
      const rewritten = head
        .slice(0, end)
        .replaceAll('rel="modulepreload"', 'rel="modulepreload" fetchpriority="low"');
      callback(null, rewritten + head.slice(end));
    },
    flush(callback) {
      callback(null, done ? undefined : head);
    },
  });
}
