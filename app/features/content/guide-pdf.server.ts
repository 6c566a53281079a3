import { marked, type Token, type Tokens } from "marked";
import type { ClinicFacts } from "~/config/clinic";
import type { GuideMeta } from "~/content/guides";
import { formatChileanPhone } from "~/domain/format";
import { renderPdf, type PdfDocument } from "~/lib/pdf.server";

/** A piece of inline text with its style: **bold**, *italic*, or the label of a [link](/path). */
export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  href?: string;
}

export type Block =
  | { kind: "h2" | "h3"; text: string }
  | { kind: "p" | "note"; runs: Run[] }
  | { kind: "ul" | "ol"; items: Run[][] }
  | { kind: "table"; header: string[]; rows: string[][] };

type Style = Omit<Run, "text">;

function inlineRuns(tokens: readonly Token[] | undefined, style: Style = {}): Run[] {
  const runs: Run[] = [];
  for (const token of tokens ?? []) {
    if (token.type === "strong")
      runs.push(...inlineRuns((token as Tokens.Strong).tokens, { ...style, bold: true }));
    else if (token.type === "em")
      runs.push(...inlineRuns((token as Tokens.Em).tokens, { ...style, italic: true }));
    else if (token.type === "link") {
      const link = token as Tokens.Link;
      runs.push(...inlineRuns(link.tokens, { ...style, href: link.href }));
    } else if (token.type === "br") runs.push({ ...style, text: " " });
    else if ("tokens" in token && token.tokens?.length) runs.push(...inlineRuns(token.tokens, style));
    else runs.push({ ...style, text: "text" in token ? String(token.text) : token.raw });
  }
  return runs;
}

/** Line breaks folded to spaces, neighbours of the same style merged, the ends trimmed. */
function tidy(runs: readonly Run[]): Run[] {
  const merged: Run[] = [];
  for (const run of runs) {
    const text = run.text.replace(/\s*\n\s*/g, " ");
    const last = merged.at(-1);
    if (last && last.bold === run.bold && last.italic === run.italic && last.href === run.href)
      last.text += text;
    else merged.push({ ...run, text });
  }
  if (merged[0]) merged[0].text = merged[0].text.trimStart();
  const tail = merged.at(-1);
  if (tail) tail.text = tail.text.trimEnd();
  return merged.filter((run) => run.text.length > 0);
}

const plain = (tokens: readonly Token[] | undefined) =>
  tidy(inlineRuns(tokens))
    .map((run) => run.text)
    .join("");

/**
 * The guide's markdown as blocks: chapters (`##`), sections (`###`), paragraphs, lists, notes (`>`) and tables.
 * Anything else is a mistake in our own content, so it fails loudly (the guides' tests render every guide).
 */
export function parseBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const token of marked.lexer(markdown)) {
    if (token.type === "heading") {
      const heading = token as Tokens.Heading;
      blocks.push({ kind: heading.depth <= 2 ? "h2" : "h3", text: plain(heading.tokens) });
    } else if (token.type === "paragraph") {
      blocks.push({ kind: "p", runs: tidy(inlineRuns((token as Tokens.Paragraph).tokens)) });
    } else if (token.type === "blockquote") {
      const inner = (token as Tokens.Blockquote).tokens.flatMap((child, index) => [
        ...(index > 0 ? [{ text: " " }] : []),
        ...inlineRuns("tokens" in child ? child.tokens : undefined),
      ]);
      blocks.push({ kind: "note", runs: tidy(inner) });
    } else if (token.type === "list") {
      const list = token as Tokens.List;
      blocks.push({
        kind: list.ordered ? "ol" : "ul",
        items: list.items.map((item) => tidy(inlineRuns(item.tokens))),
      });
    } else if (token.type === "table") {
      const table = token as Tokens.Table;
      blocks.push({
        kind: "table",
        header: table.header.map((cell) => plain(cell.tokens)),
        rows: table.rows.map((row) => row.map((cell) => plain(cell.tokens))),
      });
    } else if (token.type !== "space") {
      throw new Error(`A guide's markdown has a block the PDF cannot show: ${token.type}`);
    }
  }
  return blocks;
}

/** The chapters (`##`) of a guide, in order: what its table of contents lists. */
export function chapterTitles(markdown: string): string[] {
  return parseBlocks(markdown).flatMap((block) => (block.kind === "h2" ? [block.text] : []));
}

const colour = {
  brand: "#0f766e",
  brandDark: "#115e59",
  brandDeep: "#134e4a",
  brandLight: "#ccfbf1",
  brandPale: "#f0fdfa",
  ink: "#0f172a",
  body: "#1e293b",
  muted: "#64748b",
  rule: "#cbd5e1",
  zebra: "#f1f5f9",
  urgent: "#b91c1c",
  urgentPale: "#fef2f2",
} as const;

const MARGIN = 64;
const BODY = { size: 11, lineGap: 3.5 } as const;

const fontOf = (style: Style) =>
  style.bold
    ? style.italic
      ? "Helvetica-BoldOblique"
      : "Helvetica-Bold"
    : style.italic
      ? "Helvetica-Oblique"
      : "Helvetica";

/** A link in the guide as an address a PDF reader can open: our own paths become the site's URL. */
function absoluteUrl(href: string, siteUrl: string): string | null {
  if (href.startsWith("/")) return `${siteUrl.replace(/\/+$/, "")}${href}`;
  return /^(https?:|mailto:|tel:)/.test(href) ? href : null;
}

interface Layout {
  doc: PdfDocument;
  left: number;
  width: number;
  siteUrl: string;
}

const bottomOf = (doc: PdfDocument) => doc.page.height - doc.page.margins.bottom;
const pageIndex = (doc: PdfDocument) => {
  const range = doc.bufferedPageRange();
  return range.start + range.count - 1;
};

/** Starts a new page unless `height` still fits on this one (keeps a heading with its first lines). */
function keepTogether(doc: PdfDocument, height: number) {
  if (doc.y + height > bottomOf(doc)) doc.addPage();
}

/** Styled runs wrapped to `width` from (x, y); flows onto the next page like any text. */
function richText(
  layout: Layout,
  runs: readonly Run[],
  x: number,
  y: number,
  width: number,
  style: { size: number; lineGap: number; color: string },
) {
  const { doc } = layout;
  doc.fontSize(style.size);
  runs.forEach((run, index) => {
    const link = run.href ? absoluteUrl(run.href, layout.siteUrl) : null;
    doc.font(fontOf(run)).fillColor(link ? colour.brand : style.color);
    // Options carry over between continued calls unless set again: link and underline are always set.
    const options: PDFKit.Mixins.TextOptions = {
      width,
      lineGap: style.lineGap,
      continued: index < runs.length - 1,
      link,
      underline: link !== null,
    };
    if (index === 0) doc.text(run.text, x, y, options);
    else doc.text(run.text, options);
  });
}

function lineHeight(doc: PdfDocument, size: number, lineGap: number) {
  doc.font("Helvetica").fontSize(size);
  return doc.currentLineHeight(true) + lineGap;
}

function paragraph(layout: Layout, runs: readonly Run[]) {
  const { doc } = layout;
  keepTogether(doc, 2 * lineHeight(doc, BODY.size, BODY.lineGap));
  richText(layout, runs, layout.left, doc.y, layout.width, { ...BODY, color: colour.body });
  doc.y += 8;
}

function drawList(layout: Layout, kind: "ul" | "ol", items: readonly Run[][]) {
  const { doc, left, width } = layout;
  const indent = 22;
  items.forEach((item, index) => {
    keepTogether(doc, 2 * lineHeight(doc, BODY.size, BODY.lineGap));
    const y = doc.y;
    doc
      .font("Helvetica-Bold")
      .fontSize(BODY.size)
      .fillColor(colour.brand)
      .text(kind === "ul" ? "•" : `${index + 1}.`, left + 4, y, { width: indent - 4, lineBreak: false });
    richText(layout, item, left + indent, y, width - indent, { ...BODY, color: colour.body });
    doc.y += 4;
  });
  doc.y += 6;
}

/** A highlighted note (`> …`): a bar in the brand colour beside the text. Notes are short; one never splits. */
function note(layout: Layout, runs: readonly Run[]) {
  const { doc, left, width } = layout;
  const style = { size: 10.5, lineGap: 3, color: colour.brandDeep };
  doc.font("Helvetica-Bold").fontSize(style.size);
  const text = runs.map((run) => run.text).join("");
  const height = doc.heightOfString(text, { width: width - 20, lineGap: style.lineGap }) + 20;
  keepTogether(doc, height);
  doc.y += 2;
  const top = doc.y;
  richText(layout, runs, left + 16, top + 8, width - 20, style);
  const end = doc.y + 6;
  doc.rect(left, top, 3, end - top).fill(colour.brand);
  doc.y = end + 10;
}

/** Column widths in proportion to each column's longest cell, within bounds so no column is starved. */
function columnWidths(header: readonly string[], rows: readonly string[][], width: number): number[] {
  const weights = header.map((title, column) =>
    Math.min(48, Math.max(12, title.length, ...rows.map((row) => (row[column] ?? "").length))),
  );
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => (weight / total) * width);
}

function drawTable(layout: Layout, header: readonly string[], rows: readonly string[][]) {
  const { doc, left, width } = layout;
  const widths = columnWidths(header, rows, width);
  const padding = 6;
  const size = 9.5;
  const cellOptions = (column: number) => ({ width: widths[column]! - 2 * padding, lineGap: 1.5 });
  const heightOf = (cells: readonly string[], bold: boolean) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(size);
    return (
      Math.max(...cells.map((cell, column) => doc.heightOfString(cell, cellOptions(column)))) + 2 * padding
    );
  };
  const draw = (cells: readonly string[], y: number, height: number, kind: "head" | "odd" | "even") => {
    doc
      .rect(left, y, width, height)
      .fill(kind === "head" ? colour.brand : kind === "odd" ? colour.zebra : "#ffffff");
    doc
      .font(kind === "head" ? "Helvetica-Bold" : "Helvetica")
      .fontSize(size)
      .fillColor(kind === "head" ? "#ffffff" : colour.body);
    let x = left;
    cells.forEach((cell, column) => {
      doc.text(cell, x + padding, y + padding, cellOptions(column));
      x += widths[column]!;
    });
    doc
      .moveTo(left, y + height)
      .lineTo(left + width, y + height)
      .lineWidth(0.5)
      .strokeColor(colour.rule)
      .stroke();
  };

  const headHeight = heightOf(header, true);
  keepTogether(doc, headHeight + (rows[0] ? heightOf(rows[0], false) : 0) + 4);
  let y = doc.y + 4;
  draw(header, y, headHeight, "head");
  y += headHeight;
  rows.forEach((row, index) => {
    const height = heightOf(row, false);
    if (y + height > bottomOf(doc)) {
      doc.addPage();
      y = doc.y;
      draw(header, y, headHeight, "head");
      y += headHeight;
    }
    draw(row, y, height, index % 2 === 0 ? "odd" : "even");
    y += height;
  });
  doc.x = left;
  doc.y = y + 14;
}

interface Chapter {
  number: number;
  title: string;
  /** 1-based, as printed in the footer. */
  page: number;
  destination: string;
}

function chapterOpening(layout: Layout, number: number, title: string): Chapter {
  const { doc, left, width } = layout;
  doc.addPage();
  const destination = `capitulo-${number}`;
  doc.addNamedDestination(destination);
  doc.outline.addItem(`${number}. ${title}`);
  doc
    .font("Helvetica-Bold")
    .fontSize(10)
    .fillColor(colour.brand)
    .text(`CAPÍTULO ${number}`, left, doc.page.margins.top, { width, characterSpacing: 1.5 });
  doc.y += 6;
  doc
    .font("Helvetica-Bold")
    .fontSize(22)
    .fillColor(colour.ink)
    .text(title, left, doc.y, { width, lineGap: 2 });
  doc.rect(left, doc.y + 8, 56, 3).fill(colour.brand);
  doc.x = left;
  doc.y += 30;
  return { number, title, page: pageIndex(doc) + 1, destination };
}

function section(layout: Layout, title: string) {
  const { doc, left, width } = layout;
  keepTogether(doc, 20 + 3 * lineHeight(doc, BODY.size, BODY.lineGap));
  doc.y += 8;
  doc.font("Helvetica-Bold").fontSize(13.5).fillColor(colour.brandDeep).text(title, left, doc.y, { width });
  doc.y += 5;
}

/** Text at a fixed place that never flows to another page: cut with an ellipsis at `height`. */
function fixedText(
  doc: PdfDocument,
  text: string,
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions & { width: number; height: number },
) {
  doc.text(text, x, y, { ellipsis: true, ...options });
}

function cover(doc: PdfDocument, guide: GuideMeta, clinic: ClinicFacts) {
  const { width, height } = doc.page;
  const inner = width - 2 * MARGIN;
  doc.rect(0, 0, width, height).fill(colour.brandDark);
  doc
    .fillOpacity(0.45)
    .circle(width - 30, 110, 200)
    .fill(colour.brand);
  doc
    .fillOpacity(0.3)
    .circle(width + 20, height - 40, 160)
    .fill(colour.brand);
  doc.fillOpacity(1);

  doc.font("Helvetica-Bold").fontSize(11).fillColor(colour.brandLight);
  fixedText(doc, "GUÍA GRATUITA PARA PACIENTES", MARGIN, 170, {
    width: inner,
    height: 16,
    characterSpacing: 2,
  });
  doc.font("Helvetica-Bold").fontSize(36).fillColor("#ffffff");
  fixedText(doc, guide.title, MARGIN, 200, { width: inner - 20, height: 180, lineGap: 4 });
  const afterTitle = Math.min(doc.y, 380) + 18;
  doc.rect(MARGIN, afterTitle, 72, 4).fill("#ffffff");
  doc.font("Helvetica").fontSize(13).fillColor(colour.brandLight);
  fixedText(doc, guide.description, MARGIN, afterTitle + 26, { width: inner - 40, height: 130, lineGap: 4 });

  doc.font("Helvetica-Bold").fontSize(10);
  const pill = Math.min(doc.widthOfString(guide.category) + 28, inner);
  const pillTop = Math.min(doc.y, afterTitle + 160) + 22;
  doc.roundedRect(MARGIN, pillTop, pill, 24, 12).fill("#ffffff");
  doc.fillColor(colour.brandDark);
  fixedText(doc, guide.category, MARGIN + 14, pillTop + 7, { width: pill - 28, height: 14 });

  doc.font("Helvetica-Bold").fontSize(14).fillColor("#ffffff");
  fixedText(doc, clinic.name, MARGIN, height - 170, { width: inner, height: 36 });
  doc.font("Helvetica").fontSize(10.5).fillColor(colour.brandLight);
  fixedText(doc, `Santiago de Chile · ${clinic.siteUrl.replace(/^https?:\/\//, "")}`, MARGIN, height - 128, {
    width: inner,
    height: 14,
  });
  doc.fontSize(9).fillColor(colour.brandLight);
  fixedText(
    doc,
    "Material educativo. No reemplaza la evaluación, el diagnóstico ni las indicaciones de un profesional de la salud.",
    MARGIN,
    height - 100,
    { width: inner - 60, height: 26 },
  );
}

function tableOfContents(layout: Layout, chapters: readonly Chapter[]) {
  const { doc, left, width } = layout;
  const right = left + width;
  doc
    .font("Helvetica-Bold")
    .fontSize(24)
    .fillColor(colour.ink)
    .text("Contenido", left, doc.page.margins.top, { width, height: 30 });
  doc.rect(left, doc.page.margins.top + 36, 56, 3).fill(colour.brand);
  let y = doc.page.margins.top + 64;
  const titleWidth = width - 36 - 44;
  for (const chapter of chapters) {
    doc.font("Helvetica").fontSize(11.5);
    const height = doc.heightOfString(chapter.title, { width: titleWidth });
    if (y + height > bottomOf(doc)) throw new Error("The table of contents does not fit on one page.");
    doc.font("Helvetica-Bold").fillColor(colour.brand);
    fixedText(doc, String(chapter.number).padStart(2, "0"), left, y, { width: 30, height: 16 });
    doc.font("Helvetica").fillColor(colour.ink);
    fixedText(doc, chapter.title, left + 36, y, {
      width: titleWidth,
      height: height + 2,
      goTo: chapter.destination,
    });
    doc.font("Helvetica-Bold").fillColor(colour.ink);
    fixedText(doc, String(chapter.page), right - 40, y, {
      width: 40,
      height: 16,
      align: "right",
      goTo: chapter.destination,
    });
    y += height + 9;
    doc
      .moveTo(left + 36, y)
      .lineTo(right, y)
      .lineWidth(0.5)
      .dash(1, { space: 2 })
      .strokeColor(colour.rule)
      .stroke()
      .undash();
    y += 10;
  }
}

function backCover(layout: Layout, clinic: ClinicFacts) {
  const { doc, left, width } = layout;
  doc.addPage();
  doc.outline.addItem("Contacto");
  const pageWidth = doc.page.width;
  doc.rect(0, 0, pageWidth, 250).fill(colour.brandDark);
  doc.font("Helvetica-Bold").fontSize(26).fillColor("#ffffff");
  fixedText(doc, "¿Quieres evaluar tu caso?", left, 92, { width, height: 34 });
  doc.font("Helvetica").fontSize(12.5).fillColor(colour.brandLight);
  fixedText(
    doc,
    "Agenda una evaluación con nuestro equipo: revisaremos tu caso contigo, resolveremos tus dudas y te entregaremos por escrito un plan de tratamiento con su presupuesto, para que decidas con calma.",
    left,
    136,
    { width, height: 80, lineGap: 3 },
  );

  const rows: Array<[string, string, string | null]> = [
    ["Clínica", clinic.name, null],
    ["Dirección", clinic.address, null],
    ["Teléfono", formatChileanPhone(clinic.phone), `tel:${clinic.phone}`],
    ["Móvil y WhatsApp", formatChileanPhone(clinic.mobile), `tel:${clinic.mobile}`],
    ["Correo electrónico", clinic.email, `mailto:${clinic.email}`],
    ["Horario de atención", `${clinic.hoursLong}. ${clinic.saturday}.`, null],
    ["Sitio web", clinic.siteUrl, clinic.siteUrl],
  ];
  let y = 286;
  for (const [label, value, link] of rows) {
    doc.font("Helvetica-Bold").fontSize(9).fillColor(colour.muted);
    fixedText(doc, label.toUpperCase(), left, y, { width, height: 12, characterSpacing: 1 });
    doc.font("Helvetica").fontSize(12).fillColor(colour.ink);
    fixedText(doc, value, left, y + 14, { width, height: 30, link });
    y += 50;
  }

  const boxTop = 650;
  doc.roundedRect(left, boxTop, width, 62, 6).fill(colour.urgentPale);
  doc.rect(left, boxTop, 3, 62).fill(colour.urgent);
  doc.font("Helvetica").fontSize(10).fillColor(colour.urgent);
  fixedText(
    doc,
    `Urgencias: ante un sangrado que no se detiene, una hinchazón que dificulta respirar o tragar, o cualquier situación de riesgo vital, llama al ${clinic.emergencyNumber} (SAMU) o acude al servicio de urgencia más cercano.`,
    left + 16,
    boxTop + 12,
    { width: width - 28, height: 42, lineGap: 2 },
  );
  doc.font("Helvetica").fontSize(8.5).fillColor(colour.muted);
  fixedText(
    doc,
    "Esta guía tiene fines exclusivamente educativos y no reemplaza la evaluación, el diagnóstico ni las indicaciones de un profesional de la salud. Los valores que menciona son rangos referenciales del mercado de Santiago: no son un presupuesto ni una oferta, y cada caso se cotiza después de una evaluación.",
    left,
    730,
    { width, height: 44, lineGap: 1.5 },
  );
}

/** Page numbers and the guide's name at the foot of every page but the covers, once every page exists. */
function footers(layout: Layout, guide: GuideMeta, clinic: ClinicFacts) {
  const { doc, left, width } = layout;
  const range = doc.bufferedPageRange();
  const last = range.start + range.count - 1;
  for (let index = range.start + 1; index < last; index++) {
    doc.switchToPage(index);
    const y = doc.page.height - 44;
    doc
      .moveTo(left, y - 8)
      .lineTo(left + width, y - 8)
      .lineWidth(0.5)
      .strokeColor(colour.rule)
      .stroke();
    doc.font("Helvetica").fontSize(8.5).fillColor(colour.muted);
    fixedText(doc, `${clinic.shortName} · ${guide.title}`, left, y, { width: width - 120, height: 12 });
    fixedText(doc, `Página ${index + 1} de ${range.count}`, left + width - 110, y, {
      width: 110,
      height: 12,
      align: "right",
    });
  }
}

/**
 * The guide as a book: a cover, the table of contents (with links and the PDF's outline), each chapter from a new
 * page, page numbers, and a back page with the clinic's contact details.
 * The clinic's facts appear only at fixed places (covers and footers), cut to fit, so they never move the text: the
 * page count depends on the guide's text alone, which is how the cards can state it (see guides.ts and its test).
 */
export function renderGuidePdf(guide: GuideMeta, markdown: string, clinic: ClinicFacts): Promise<Buffer> {
  const blocks = parseBlocks(markdown);
  return renderPdf(
    {
      margin: MARGIN,
      bufferPages: true,
      info: { Title: guide.title, Author: clinic.name, Subject: guide.description, Keywords: guide.category },
    },
    (doc) => {
      const layout: Layout = {
        doc,
        left: MARGIN,
        width: doc.page.width - 2 * MARGIN,
        siteUrl: clinic.siteUrl,
      };
      cover(doc, guide, clinic);
      doc.addPage();
      doc.outline.addItem("Contenido");
      const contentsPage = pageIndex(doc);

      const chapters: Chapter[] = [];
      let opened = false;
      for (const block of blocks) {
        if (block.kind === "h2") {
          chapters.push(chapterOpening(layout, chapters.length + 1, block.text));
          opened = true;
          continue;
        }
        if (!opened) {
          doc.addPage();
          opened = true;
        }
        if (block.kind === "h3") section(layout, block.text);
        else if (block.kind === "p") paragraph(layout, block.runs);
        else if (block.kind === "note") note(layout, block.runs);
        else if (block.kind === "table") drawTable(layout, block.header, block.rows);
        else if (block.kind === "ul" || block.kind === "ol") drawList(layout, block.kind, block.items);
      }
      backCover(layout, clinic);

      doc.switchToPage(contentsPage);
      tableOfContents(layout, chapters);
      footers(layout, guide, clinic);
    },
  );
}
