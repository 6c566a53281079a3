import type PDFDocument from "pdfkit";

export type PdfDocument = InstanceType<typeof PDFDocument>;

/**
 * An A4 PDF in Spanish (es-CL, PDF 1.7, its title shown by viewers), drawn by `draw` and collected into one buffer:
 * the guides, the payment receipts and the data export's summary all start here. `compress: false` only for tests
 * that read the text.
 */
export async function renderPdf(
  options: { margin: number; info: PDFKit.DocumentInfo; compress?: boolean; bufferPages?: boolean },
  draw: (doc: PdfDocument) => void,
): Promise<Buffer> {
  // pdfkit and its fonts (~80 modules) load at the first PDF, not at start (ADR 050).
  const { default: Pdf } = await import("pdfkit");
  return new Promise((resolve, reject) => {
    const { margin } = options;
    const doc = new Pdf({
      size: "A4",
      margins: { top: margin, bottom: margin, left: margin, right: margin },
      info: options.info,
      lang: "es-CL",
      pdfVersion: "1.7",
      displayTitle: true,
      compress: options.compress ?? true,
      // Kept in memory until the end, so that page numbers and a table of contents can be drawn afterwards.
      bufferPages: options.bufferPages ?? false,
    });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    try {
      draw(doc);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}
