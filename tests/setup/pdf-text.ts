import { inflateSync } from "node:zlib";

/**
 * The text a pdfkit document shows, line by line as it was written: every content stream (inflated when
 * compressed), each `[<hex> kerning <hex>] TJ` array joined. pdfkit writes the standard fonts' text as WinAnsi hex,
 * which is Latin-1 for the Spanish letters a receipt uses.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  const streams: string[] = [];
  const marker = /stream\r?\n/g;
  for (let match = marker.exec(raw); match; match = marker.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    const bytes = pdf.subarray(start, end);
    try {
      streams.push(inflateSync(bytes).toString("latin1"));
    } catch {
      streams.push(bytes.toString("latin1"));
    }
    // Past "endstream", whose own "stream" would otherwise start a bogus stream that swallows the next one.
    marker.lastIndex = end + "endstream".length;
  }
  const lines: string[] = [];
  for (const stream of streams) {
    for (const array of stream.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const text = [...array[1]!.matchAll(/<([0-9A-Fa-f]*)>/g)]
        .map((hex) => Buffer.from(hex[1]!, "hex").toString("latin1"))
        .join("");
      lines.push(text);
    }
  }
  return lines.join("\n");
}
