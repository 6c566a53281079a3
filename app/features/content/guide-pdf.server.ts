import PDFDocument from "pdfkit";
import type { GuideMeta } from "~/content/guides";

type Block = { kind: "h2" | "h3" | "p"; text: string } | { kind: "ul" | "ol"; items: string[] };

/** Parses the small markdown subset our content uses (headings, paragraphs, lists). */
export function parseBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "p", text: paragraph.join(" ") });
    paragraph = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const bullet = /^[-*]\s+(.*)$/.exec(line);
    const numbered = /^\d+\.\s+(.*)$/.exec(line);
    if (!line) flush();
    else if (heading) {
      flush();
      blocks.push({ kind: heading[1]!.length <= 2 ? "h2" : "h3", text: heading[2]! });
    } else if (bullet || numbered) {
      flush();
      const kind = bullet ? "ul" : "ol";
      const item = (bullet ?? numbered)![1]!;
      const last = blocks.at(-1);
      if (last && last.kind === kind) last.items.push(item);
      else blocks.push({ kind, items: [item] });
    } else paragraph.push(line);
  }
  flush();
  return blocks;
}

/** **bold** and [label](/path) → plain text; a PDF has no relative links. */
function plain(text: string): string {
  return text.replace(/\*\*(.+?)\*\*/g, "$1").replace(/\[([^\]]+)\]\(([^)]+)\)/g, "$1");
}

export function renderGuidePdf(
  guide: GuideMeta,
  markdown: string,
  clinicName: string,
  siteUrl: string,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margins: { top: 64, bottom: 64, left: 64, right: 64 },
      info: { Title: guide.title, Author: clinicName, Subject: guide.description, Keywords: guide.category },
      lang: "es-CL",
      pdfVersion: "1.7",
      displayTitle: true,
    });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);

    doc.rect(0, 0, doc.page.width, 220).fill("#0f766e");
    doc.fillColor("#ffffff").font("Helvetica-Bold").fontSize(12).text("GUÍA GRATUITA", 64, 70);
    doc.fontSize(28).text(guide.title, 64, 95, { width: doc.page.width - 128 });
    doc
      .fillColor("#0f172a")
      .font("Helvetica")
      .fontSize(12)
      .text(guide.description, 64, 250, { width: doc.page.width - 128 });
    doc
      .moveDown(0.5)
      .fillColor("#475569")
      .fontSize(10)
      .text(`${clinicName} · ${guide.category} · ${siteUrl}`);
    doc.addPage();

    for (const block of parseBlocks(markdown)) {
      doc.fillColor("#0f172a");
      if (block.kind === "h2")
        doc.moveDown(0.8).font("Helvetica-Bold").fontSize(17).text(plain(block.text)).moveDown(0.3);
      else if (block.kind === "h3")
        doc.moveDown(0.5).font("Helvetica-Bold").fontSize(13).text(plain(block.text)).moveDown(0.2);
      else if (block.kind === "p")
        doc
          .font("Helvetica")
          .fontSize(11)
          .text(plain(block.text), { align: "justify", lineGap: 2 })
          .moveDown(0.6);
      else if (block.kind === "ul" || block.kind === "ol") {
        doc.font("Helvetica").fontSize(11);
        block.items.forEach((item, index) => {
          const marker = block.kind === "ul" ? "•" : `${index + 1}.`;
          doc.text(`${marker}  ${plain(item)}`, { indent: 12, lineGap: 2 });
        });
        doc.moveDown(0.6);
      }
    }
    doc.end();
  });
}
