import { renderPdf } from "~/lib/pdf.server";
import { marked, type Token, type Tokens } from "marked";
import type { GuideMeta } from "~/content/guides";

type Block = { kind: "h2" | "h3" | "p"; text: string } | { kind: "ul" | "ol"; items: string[] };

/** Inline markdown as plain text (a PDF has no relative links): **bold** and [label](/path) keep only their text. */
function plainText(tokens: readonly Token[] | undefined, fallback: string): string {
  if (!tokens) return fallback;
  return tokens
    .map((token) => {
      if ("tokens" in token && token.tokens) return plainText(token.tokens, "");
      if (token.type === "br") return " ";
      return "text" in token ? String(token.text) : token.raw;
    })
    .join("");
}

/** Blocks of the guide's markdown (headings, paragraphs, lists), parsed by marked's lexer. */
export function parseBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const token of marked.lexer(markdown)) {
    if (token.type === "heading") {
      const heading = token as Tokens.Heading;
      blocks.push({ kind: heading.depth <= 2 ? "h2" : "h3", text: plainText(heading.tokens, heading.text) });
    } else if (token.type === "paragraph") {
      const paragraph = token as Tokens.Paragraph;
      blocks.push({ kind: "p", text: plainText(paragraph.tokens, paragraph.text).replace(/\s*\n\s*/g, " ") });
    } else if (token.type === "list") {
      const list = token as Tokens.List;
      blocks.push({
        kind: list.ordered ? "ol" : "ul",
        items: list.items.map((item) =>
          plainText(item.tokens, item.text)
            .replace(/\s*\n\s*/g, " ")
            .trim(),
        ),
      });
    }
  }
  return blocks;
}

export function renderGuidePdf(
  guide: GuideMeta,
  markdown: string,
  clinicName: string,
  siteUrl: string,
): Promise<Buffer> {
  return renderPdf(
    {
      margin: 64,
      info: { Title: guide.title, Author: clinicName, Subject: guide.description, Keywords: guide.category },
    },
    (doc) => {
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
          doc.moveDown(0.8).font("Helvetica-Bold").fontSize(17).text(block.text).moveDown(0.3);
        else if (block.kind === "h3")
          doc.moveDown(0.5).font("Helvetica-Bold").fontSize(13).text(block.text).moveDown(0.2);
        else if (block.kind === "p")
          doc.font("Helvetica").fontSize(11).text(block.text, { align: "justify", lineGap: 2 }).moveDown(0.6);
        else if (block.kind === "ul" || block.kind === "ol") {
          doc.font("Helvetica").fontSize(11);
          block.items.forEach((item, index) => {
            const marker = block.kind === "ul" ? "•" : `${index + 1}.`;
            doc.text(`${marker}  ${item}`, { indent: 12, lineGap: 2 });
          });
          doc.moveDown(0.6);
        }
      }
    },
  );
}
