/**
 * The body's chunks written to the response as they come, waiting for 'drain' when the client reads slowly; when the
 * visitor goes away mid-response the body is cancelled (the render or event stream behind it stops) and nothing is
 * reported. A loop over the reader rather than stream.pipeline(Readable.fromWeb(…)): two stream adapters and an
 * AbortController per response fewer (issue 25's profile).
 *
 * One 'drain' listener for the whole response, not one per wait: the compression middleware hands a response's
 * 'drain' listeners to its gzip stream, where neither `once`'s self-removal nor `off` on the response reaches them,
 * so a listener per wait stayed on that stream (a 20 MiB CSV export piled up hundreds, and Node warned of a leak).
 *
 * @param {ReadableStream<Uint8Array>} body
 * @param {import("node:http").ServerResponse} res
 */
export async function writeBody(body, res) {
  const reader = body.getReader();
  let gone = false;
  let wake = null;
  const onDrain = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  const onClose = () => {
    if (res.writableFinished) return;
    gone = true;
    onDrain();
    reader.cancel().catch(() => {});
  };
  res.on("close", onClose);
  res.on("drain", onDrain);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value) && !gone) {
        await new Promise((resolve) => {
          wake = resolve;
        });
        if (gone) break;
      }
    }
  } catch (error) {
    if (gone) return;
    // The body failed midway (headers are sent): cut the connection so the client sees an incomplete response.
    res.destroy();
    throw error;
  } finally {
    res.off("close", onClose);
    res.off("drain", onDrain);
    reader.releaseLock();
  }
  if (!gone && !res.destroyed) res.end();
}
