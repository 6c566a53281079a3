import { IntegrationError } from "../http.server";
import { dentalinkDeadlineLeft } from "./dentalink-client.server";
import { DEMO_FILE_CONTENTS } from "./dentalink-demo-records";
import { DENTALINK_DEFAULT_BASE_URL, DENTALINK_SYSTEM } from "./dentalink-schemas";

/**
 * Downloads a patient file (document or x-ray) for the portal's file proxy (ADR 021): the browser never gets the
 * vendor URL or the token. The token goes only to the configured API's origin (a file URL elsewhere — a storage
 * host with a signed URL — is fetched without it); only http(s); a timeout; a size cap. In mock mode the demo
 * files of `dentalink-demo-records.ts` answer instead of HTTP.
 */

export interface DentalinkFileBody {
  /** A content type from the list below; anything else is `application/octet-stream`. */
  contentType: string;
  body: ReadableStream<Uint8Array> | Uint8Array;
  size: number | null;
}

export interface DentalinkFileFetcher {
  fetchFile(url: string): Promise<DentalinkFileBody>;
}

export interface DentalinkFileFetcherOptions {
  mode: "live" | "mock";
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Default 25 MB. */
  maxBytes?: number;
  fetch?: typeof globalThis.fetch;
}

/** What the proxy may pass on with its own type; other types are sent as a download of unknown bytes. */
export const SAFE_FILE_TYPES = new Set([
  "application/pdf",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

function failure(status: number | null, code: string, message: string): IntegrationError {
  return new IntegrationError({ system: DENTALINK_SYSTEM, status, body: null, code, message });
}

export function createDentalinkFileFetcher(options: DentalinkFileFetcherOptions): DentalinkFileFetcher {
  const maxBytes = options.maxBytes ?? 25 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const apiOrigin = new URL(options.baseUrl?.trim() || DENTALINK_DEFAULT_BASE_URL).origin;

  if (options.mode === "mock") {
    return {
      async fetchFile(url) {
        const file = DEMO_FILE_CONTENTS.get(url);
        if (!file) throw failure(404, "NOT_FOUND", "dentalink: no such demo file");
        return { contentType: file.contentType, body: file.bytes, size: file.bytes.byteLength };
      },
    };
  }

  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    async fetchFile(url) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw failure(200, "INVALID_RESPONSE", "dentalink: a file URL that is not a URL");
      }
      if (target.protocol !== "https:" && target.protocol !== "http:") {
        throw failure(200, "INVALID_RESPONSE", "dentalink: a file URL that is not http(s)");
      }
      const headers: Record<string, string> = {};
      if (target.origin === apiOrigin && options.apiKey) headers.authorization = `Token ${options.apiKey}`;
      // The answer must start within what is left of the request's Dentalink deadline (the file list before it
      // started it); the body may take the whole timeout.
      const left = dentalinkDeadlineLeft();
      const waiting = new AbortController();
      const timer =
        left === undefined || left >= timeoutMs
          ? undefined
          : setTimeout(() => waiting.abort(new DOMException("deadline", "TimeoutError")), Math.max(0, left));
      let response: Response;
      try {
        response = await fetchImpl(target, {
          headers,
          redirect: "error",
          signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), waiting.signal]),
        });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === "TimeoutError";
        throw new IntegrationError({
          system: DENTALINK_SYSTEM,
          status: null,
          body: null,
          code: timedOut ? "TIMEOUT" : "NETWORK",
          message: `dentalink: file download ${timedOut ? "timed out" : "failed"}`,
          cause: error,
        });
      } finally {
        clearTimeout(timer);
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw failure(response.status, "FILE_FAILED", `dentalink: file download answered ${response.status}`);
      }
      const declared = Number(response.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > maxBytes) {
        await response.body.cancel();
        throw failure(200, "TOO_LARGE", "dentalink: file larger than the proxy's limit");
      }
      const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      let seen = 0;
      const capped = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            seen += chunk.byteLength;
            if (seen > maxBytes) controller.error(new Error("file larger than the proxy's limit"));
            else controller.enqueue(chunk);
          },
        }),
      );
      return {
        contentType: SAFE_FILE_TYPES.has(type) ? type : "application/octet-stream",
        body: capped,
        size: Number.isFinite(declared) && declared > 0 ? declared : null,
      };
    },
  };
}
