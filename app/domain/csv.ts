/**
 * CSV for spreadsheets used in Chile (the lead export, ADR 027). Pure.
 *
 * - Separator `;`: Excel takes a CSV's separator from the Windows "list separator", which is `;` wherever the decimal
 *   separator is a comma, as in es-CL. With `,` every row lands in column A. (A `sep=;` first line would fix the
 *   separator but makes Excel ignore the BOM, which breaks the accents.)
 * - UTF-8 with a byte-order mark, so Excel reads 'Muñoz' and not 'MuÃ±oz'; CRLF line ends (RFC 4180).
 * - Formula injection (OWASP "CSV Injection"): a cell that starts with = + - @, a tab or a carriage return would be
 *   run as a formula by Excel, LibreOffice and Sheets; such text gets a leading apostrophe, so it shows as typed.
 *   The file may also be opened with `,` as separator (another locale, an import that guesses): then a cell starts
 *   after any comma or line break of our text, outside the quotes of a `;` reader, and quoting cannot protect a
 *   field that is not first on its line. So the apostrophe also goes after every comma or line break that a
 *   formula character follows (quotes in between do not help either), and a field with a comma is quoted too.
 */

export const CSV_SEPARATOR = ";";
export const CSV_BOM = "\uFEFF";
export const CSV_LINE_END = "\r\n";

/** Where a spreadsheet may start a cell in our text (its start, after `,`, CR or LF) with a formula character. */
const FORMULA_AT_CELL_START = /(?<=^|[,\r\n])(?="*[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[;,"\r\n]|^\s|\s$/;

/**
 * One cell: text neutralised against formulas, quoted when it holds either separator, a quote or a line break.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string") text = text.replace(FORMULA_AT_CELL_START, "'");
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A phone number kept as text. Excel reads '+56912345678' as the formula +56912345678 and shows 56912345678 (or
 * 5,69E+10); written as `="+56912345678"` it shows '+56912345678' and keeps it as text. Only a bare number
 * (an optional + and digits) is written that way, so nothing typed by a user can become a formula; anything else is
 * an ordinary neutralised cell.
 */
export function csvPhoneCell(phone: string | null | undefined): string {
  if (!phone) return "";
  if (!/^\+?\d{1,20}$/.test(phone)) return csvCell(phone);
  return `"=""${phone}"""`;
}

/** A row of already-built cells and its line end. */
export function csvRow(cells: readonly string[]): string {
  return cells.join(CSV_SEPARATOR) + CSV_LINE_END;
}
