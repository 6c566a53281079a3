import type { RecordFileDownload } from "./record-files.server";

/** An RFC 6266 filename: ASCII fallback plus the UTF-8 name. */
function disposition(kind: "inline" | "attachment", name: string): string {
  const ascii =
    name
      .normalize("NFD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\]/g, "_") || "archivo";
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The proxied file: never cached (clinical data, DESIGN §6), its type only when it is one we know (else a
 * download of unknown bytes), nosniff, and no vendor URL or header passed on.
 */
export function fileResponse(file: RecordFileDownload, download: boolean): Response {
  const known = file.contentType !== "application/octet-stream";
  const headers = new Headers({
    "Content-Type": file.contentType,
    "Content-Disposition": disposition(download || !known ? "attachment" : "inline", file.name),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (file.size !== null) headers.set("Content-Length", String(file.size));
  const body = file.body instanceof Uint8Array ? new Uint8Array(file.body) : file.body;
  return new Response(body, { headers });
}
