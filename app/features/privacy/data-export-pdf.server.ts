import { renderPdf } from "~/lib/pdf.server";
import type { ExportSummary } from "~/domain/data-export";

/**
 * `resumen.pdf`: the export's readable summary (ADR 037), printed as `domain/data-export.ts` words it — a heading per
 * section, its paragraphs, then its items as a list. `compress: false` only for tests that read its text.
 */
export function renderExportSummaryPdf(
  summary: ExportSummary,
  meta: { clinicName: string; generatedAt: Date },
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  return renderPdf(
    {
      margin: 56,
      info: { Title: summary.title, Author: meta.clinicName, CreationDate: meta.generatedAt },
      compress: options.compress,
    },
    (doc) => {
      doc.fillColor("#475569").font("Helvetica").fontSize(10).text(meta.clinicName);
      doc.moveDown(0.5).fillColor("#0f172a").font("Helvetica-Bold").fontSize(20).text(summary.title);
      for (const section of summary.sections) {
        doc.moveDown(1).fillColor("#0f172a").font("Helvetica-Bold").fontSize(13).text(section.heading);
        doc.moveDown(0.3).font("Helvetica").fontSize(10).fillColor("#1e293b");
        for (const paragraph of section.paragraphs) doc.text(paragraph).moveDown(0.3);
        if (section.items.length > 0) doc.list(section.items, { bulletRadius: 1.5, textIndent: 12 });
      }
    },
  );
}
