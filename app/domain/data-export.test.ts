import { describe, expect, it } from "vitest";
import {
  DATA_EXPORTS_PER_DAY,
  exportDocument,
  exportExpiresAt,
  exportFileName,
  exportLimitReached,
  exportProgress,
  exportReadme,
  exportSummary,
  formatFileSize,
  jsonValue,
  SUMMARY_ROWS_PER_TABLE,
  toInstant,
  type ExportInput,
} from "./data-export";

const generatedAt = new Date("2026-03-14T15:30:00.000Z"); // 12:30 in Santiago (summer time, UTC−3)

function input(tables: ExportInput["tables"]): ExportInput {
  return {
    clinic: {
      name: "Río Clínica",
      privacyEmail: "privacidad@clinica.example",
      siteUrl: "https://clinica.example",
    },
    person: { userId: "u1", name: "Ana Pérez", email: "ana@example.com" },
    generatedAt,
    tables,
    myDataPath: "/paciente/datos",
  };
}

function allText(summary: ReturnType<typeof exportSummary>): string {
  return summary.sections.flatMap((s) => [s.heading, ...s.paragraphs, ...s.items]).join("\n");
}

describe("export rules", () => {
  it.each([
    [0, 100, 0],
    [1, 49, 1],
    [25, 50, 45],
    [49, 49, 90],
    [60, 49, 90],
    [0, 0, 90],
  ])("progress after %i of %i tables is %i", (done, total, progress) => {
    expect(exportProgress(done, total)).toBe(progress);
  });

  it.each([
    [0, false],
    [DATA_EXPORTS_PER_DAY - 1, false],
    [DATA_EXPORTS_PER_DAY, true],
    [DATA_EXPORTS_PER_DAY + 5, true],
  ])("after %i exports in 24 hours the limit is reached: %s", (asked, reached) => {
    expect(exportLimitReached(asked)).toBe(reached);
  });

  it("keeps a file 7 days and names it by its Santiago date", () => {
    expect(exportExpiresAt(generatedAt).toISOString()).toBe("2026-03-21T15:30:00.000Z");
    // 01:00 UTC on 15 March is still 14 March in Santiago.
    expect(exportFileName(new Date("2026-03-15T01:00:00Z"))).toBe("datos-2026-03-14.zip");
    expect(exportFileName(new Date("2026-07-01T05:00:00Z"))).toBe("datos-2026-07-01.zip");
  });

  it.each([
    [850, "850 bytes"],
    [12_400, "12 KB"],
    [1_468_006, "1,4 MB"],
  ])("a file of %i bytes reads %s", (bytes, words) => {
    expect(formatFileSize(bytes)).toBe(words);
  });

  it.each([
    ["2026-03-14 12:00:00+00", "2026-03-14T12:00:00.000Z"],
    ["2026-03-14 12:00:00.25-03", "2026-03-14T15:00:00.250Z"],
    ["2026-03-14T12:00:00.000Z", "2026-03-14T12:00:00.000Z"],
  ])("reads the stored instant %s", (stored, iso) => {
    expect(toInstant(stored)?.toISOString()).toBe(iso);
  });

  it("turns rows into JSON-safe values", () => {
    expect(
      jsonValue({
        at: new Date("2026-01-01T00:00:00Z"),
        bytes: new Uint8Array([0, 171, 255]),
        n: 10n,
        nested: [{ x: null }],
      }),
    ).toEqual({ at: "2026-01-01T00:00:00.000Z", bytes: "00abff", n: "10", nested: [{ x: null }] });
  });
});

describe("datos.json", () => {
  it("says who, when and under which law, and holds every table with its Spanish label", () => {
    const doc = exportDocument(
      input([
        { table: "users", label: "Cuenta y perfil", rows: [{ id: "u1", email: "ana@example.com" }] },
        { table: "payments", label: "Pagos", rows: [{ amount: 45000, created_at: generatedAt }] },
        { table: "chat_messages", label: "Chat: mensajes", rows: [] },
      ]),
    );
    const parsed = JSON.parse(JSON.stringify(doc)) as {
      generado: string;
      ley: string;
      titular: { correo: string };
      tablas: Array<{
        tabla: string;
        categoria: string;
        filas: number;
        motivoConservacion?: string;
        datos: unknown[];
      }>;
    };
    expect(parsed.generado).toBe("2026-03-14T15:30:00.000Z");
    expect(parsed.ley).toContain("21.719");
    expect(parsed.titular.correo).toBe("ana@example.com");
    expect(parsed.tablas.map((t) => [t.tabla, t.categoria, t.filas])).toEqual([
      ["users", "Cuenta y perfil", 1],
      ["payments", "Pagos", 1],
      ["chat_messages", "Chat: mensajes", 0],
    ]);
    expect(parsed.tablas[1]!.motivoConservacion).toContain("Código Tributario");
    expect(parsed.tablas[1]!.datos).toEqual([{ amount: 45000, created_at: "2026-03-14T15:30:00.000Z" }]);
  });
});

describe("the PDF summary", () => {
  const summary = exportSummary(
    input([
      {
        table: "users",
        label: "Cuenta y perfil",
        rows: [
          {
            first_name: "Ana",
            last_name: "Pérez",
            email: "ana@example.com",
            phone: "+56912345678",
            created_at: "2025-12-01 10:00:00+00",
          },
        ],
      },
      {
        table: "appointments",
        label: "Citas",
        rows: [{ starts_at: new Date("2026-03-20T13:00:00Z"), status: "confirmed" }],
      },
      {
        table: "payments",
        label: "Pagos",
        rows: [
          {
            amount: 45000,
            status: "authorized",
            buy_order: "RC123",
            created_at: new Date("2026-03-10T14:05:00Z"),
          },
        ],
      },
      {
        table: "consents",
        label: "Consentimientos",
        rows: [
          {
            purpose: "recordatorios_whatsapp",
            text_version: "v1",
            given_at: new Date("2026-01-05T12:00:00Z"),
            withdrawn_at: new Date("2026-02-01T12:00:00Z"),
          },
        ],
      },
      {
        table: "chat_messages",
        label: "Chat: mensajes",
        rows: [
          { created_at: new Date("2026-03-01T12:00:00Z") },
          { created_at: new Date("2026-03-05T12:00:00Z") },
        ],
      },
      {
        table: "clinical_record_access",
        label: "Registro de accesos a la ficha clínica",
        rows: [
          {
            actor_name: "Dra. Rojas",
            actor_role: "dentista",
            reason: "Control",
            created_at: new Date("2026-02-10T12:00:00Z"),
          },
        ],
      },
      { table: "advisor_messages", label: "Conversación con el asesor virtual", rows: [] },
    ]),
  );
  const text = allText(summary);

  it("says who and when, in Santiago time", () => {
    expect(text).toContain("Titular: Ana Pérez (ana@example.com).");
    expect(text).toContain("14 de marzo de 2026");
    expect(text).toContain("12:30");
  });

  it("lists each category with rows, its count and the key rows in plain words (CLP, Santiago dates)", () => {
    const headings = summary.sections.map((s) => s.heading);
    expect(headings).toEqual(expect.arrayContaining(["Citas", "Pagos", "Consentimientos", "Chat: mensajes"]));
    expect(headings).not.toContain("Conversación con el asesor virtual");
    expect(text).toContain("Cita del 20 de marzo de 2026 a las 10:00: Confirmada");
    expect(text).toContain("Pago de $45.000 el 10 de marzo de 2026 a las 11:05: pagado (orden RC123)");
    expect(text).toContain(
      "Recordatorios por WhatsApp: aceptado el 5 de enero de 2026 a las 09:00 (texto v1), retirado el 1 de febrero de 2026 a las 09:00",
    );
    expect(text).toContain("2 registros. Del 1 de marzo de 2026 al 5 de marzo de 2026.");
    expect(text).toContain("Dra. Rojas (dentista) consultó tu ficha con el motivo «Control»");
  });

  it("says what is retained, why and until when", () => {
    const retained = summary.sections.find(
      (s) => s.heading === "Qué se conserva por obligación legal y por qué",
    )!;
    expect(retained.items).toEqual([
      expect.stringMatching(/^Citas: .*Ley 20\.584.* Se conserva hasta el 20 de marzo de 2041\.$/),
      expect.stringMatching(/^Pagos: .*Código Tributario.* Se conserva hasta el 10 de marzo de 2032\.$/),
      expect.stringMatching(/^Registro de accesos a la ficha clínica: .* hasta el 10 de febrero de 2041\.$/),
    ]);
  });

  it("states the rights and how to exercise them", () => {
    const rights = summary.sections.find((s) => s.heading === "Tus derechos y cómo ejercerlos")!;
    expect(rights.items.join("\n")).toContain("https://clinica.example/paciente/datos");
    expect(rights.items.join("\n")).toContain("privacidad@clinica.example");
    expect(rights.items.join("\n")).toContain("Agencia de Protección de Datos Personales");
    expect(rights.paragraphs[0]).toContain("30 días corridos");
  });

  it(`spells out at most ${SUMMARY_ROWS_PER_TABLE} rows of a table and points to datos.json for the rest`, () => {
    const many = exportSummary(
      input([
        {
          table: "sessions",
          label: "Sesiones iniciadas",
          rows: Array.from({ length: SUMMARY_ROWS_PER_TABLE + 3 }, () => ({ created_at: generatedAt })),
        },
      ]),
    );
    const section = many.sections.find((s) => s.heading === "Sesiones iniciadas")!;
    expect(section.items).toHaveLength(SUMMARY_ROWS_PER_TABLE);
    expect(section.paragraphs).toContain("Y 3 registros más, en datos.json.");
  });

  it("says so when nothing is held or retained", () => {
    const empty = allText(exportSummary(input([{ table: "leads", label: "Solicitudes", rows: [] }])));
    expect(empty).toContain("La clínica no guarda datos sobre ti, aparte de esta descarga.");
    expect(empty).toContain("Nada de lo que la clínica guarda sobre ti está sujeto a una obligación legal");
  });

  it("LEEME.txt names both files and the 7 days", () => {
    const readme = exportReadme(input([]));
    expect(readme).toContain("datos.json");
    expect(readme).toContain("resumen.pdf");
    expect(readme).toContain("7 días");
  });
});
