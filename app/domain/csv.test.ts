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
    expect(csvCell("\r=1")).toBe('"\'\r=1"');
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
