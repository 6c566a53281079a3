import { describe, expect, it } from "vitest";
import { defaultClinic } from "~/config/clinic";
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
