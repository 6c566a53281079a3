import { describe, expect, it } from "vitest";
import { defaultClinic } from "~/config/clinic";
import { processors } from "~/content/processors";
import { retentionRules } from "~/domain/retention";
import { legalHtml } from "./content.server";

describe("legal texts quote the appointment rules from their modules", () => {
  it.each(["politica-privacidad", "terminos-servicio"] as const)(
    "%s states 24 hours and 50%% as before",
    (slug) => {
      const html = legalHtml(slug, defaultClinic) ?? "";
      expect(html).not.toContain("{{");
      expect(html).toContain("<strong>24 horas antes</strong>");
      expect(html).toContain("<strong>24 horas o más</strong>");
      expect(html).toContain("<strong>menos de 24 horas</strong>");
      expect(html).toContain("<strong>50% del valor del tratamiento");
    },
  );
});

describe("legal texts name the clinic's address once, as written in its facts (issue 24, item 12)", () => {
  it.each(["politica-privacidad", "terminos-servicio"] as const)("%s", (slug) => {
    const html = legalHtml(slug, defaultClinic) ?? "";
    expect(html).toContain(`${defaultClinic.address}, Chile`);
    expect(html).not.toMatch(/Santiago, Santiago/);
  });
});

describe("the privacy policy renders the retention table and the processors from their one source", () => {
  const html = legalHtml("politica-privacidad", defaultClinic);

  it("has one table row per retention rule, with its period and what happens", () => {
    const table = html.slice(html.indexOf("<table>"), html.indexOf("</table>"));
    expect(table.match(/<tr>/g)).toHaveLength(retentionRules.length + 1);
    for (const rule of retentionRules) {
      expect(table).toContain(`<td>${rule.label.replace(/&/g, "&amp;")}</td>`);
    }
    expect(table).toContain("<td>15 años</td>");
    expect(table).toContain("<td>Se anonimiza</td>");
  });

  it("lists every processor with where it processes the data", () => {
    for (const processor of processors) {
      expect(html).toContain(`<strong>${processor.name}</strong>`);
    }
    expect(html).toContain("Es una transferencia internacional de datos.");
  });

  it("tells how to exercise the rights and the right to complain to the Agency", () => {
    expect(html).toContain('href="/eliminar-datos"');
    expect(html).toContain("Mis Datos");
    expect(html).toContain("<strong>30 días corridos</strong>");
    expect(html).toContain("<strong>Agencia de Protección de Datos Personales</strong>");
  });
});
