import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import type { ReactElement } from "react";
import { renderToPipeableStream } from "react-dom/server";

/** For tests: the whole HTML React's streaming renderer (the one production uses) writes for `element`. */
export function renderStreamed(element: ReactElement): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      onAllReady() {
        const out = new PassThrough();
        pipe(out);
        text(out).then(resolve, reject);
      },
      onShellError: reject,
      onError: reject,
    });
  });
}
