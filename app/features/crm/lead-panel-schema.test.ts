import { describe, expect, it } from "vitest";
import { defaultLeadFilters, isFiltered, leadFiltersQuery, parseLeadFilters } from "./lead-panel-schema";

const parse = (query: string) => parseLeadFilters(new URLSearchParams(query));

describe("parseLeadFilters", () => {
  it("gives the defaults for an empty query", () => {
    expect(parse("")).toEqual({ filters: defaultLeadFilters, ignored: [] });
    expect(parse("tab=leads&q=&level=")).toEqual({ filters: defaultLeadFilters, ignored: [] });
  });

  it("reads every filter, the sort and the page", () => {
    const { filters, ignored } = parse(
      "q=+gonz+rojas+&level=hot&status=contacted&source=whatsapp&treatment=implantes&assignee=mios" +
        "&from=2026-01-01&to=2026-01-31&sort=puntaje&page=3",
    );
    expect(ignored).toEqual([]);
    expect(filters).toEqual({
      q: "gonz rojas",
      level: "hot",
      status: "contacted",
      source: "whatsapp",
      treatment: "implantes",
      assignee: "mios",
      from: "2026-01-01",
      to: "2026-01-31",
      sort: "puntaje",
      page: 3,
    });
  });

  it("accepts 'Sin asignar' and a staff member's id as the assignee", () => {
    expect(parse("assignee=sin-asignar").filters.assignee).toBe("sin-asignar");
    expect(parse("assignee=Ab3_x-9").filters.assignee).toBe("Ab3_x-9");
  });

  it("falls back to the default for each invalid value and names it in Spanish", () => {
    const { filters, ignored } = parse(
      "level=tibio&status=x&source=fax&treatment=%3Cscript%3E&assignee=1%27%20or%201%3D1&from=2026-02-30" +
        "&to=ayer&sort=nombre&page=0",
    );
    expect(filters).toEqual(defaultLeadFilters);
    expect(ignored).toEqual([
      "Nivel",
      "Estado",
      "Origen",
      "Tratamiento",
      "Asignado a",
      "Creado desde",
      "Creado hasta",
      "Ordenar por",
      "Página",
    ]);
    expect(parse("page=2.5").ignored).toEqual(["Página"]);
    expect(parse("page=99999999").filters.page).toBe(1);
  });

  it("cuts a long search to 100 characters", () => {
    expect(parse(`q=${"a".repeat(300)}`).filters.q).toHaveLength(100);
  });

  it("ignores a 'hasta' before the 'desde'", () => {
    expect(parse("from=2026-03-10&to=2026-03-01")).toEqual({
      filters: { ...defaultLeadFilters, from: "2026-03-10" },
      ignored: ["Creado hasta"],
    });
  });
});

describe("leadFiltersQuery and isFiltered", () => {
  it("writes only what differs from the defaults, and round-trips", () => {
    expect(leadFiltersQuery(defaultLeadFilters)).toBe("tab=leads");
    const view = { ...defaultLeadFilters, q: "muñoz", level: "hot" as const, page: 2 };
    const query = leadFiltersQuery(view);
    expect(query).toBe("tab=leads&q=mu%C3%B1oz&level=hot&page=2");
    expect(parse(query).filters).toEqual(view);
    expect(leadFiltersQuery(view, { page: 3 })).toContain("page=3");
  });

  it("says whether a view is narrowed (sort and page do not narrow)", () => {
    expect(isFiltered(defaultLeadFilters)).toBe(false);
    expect(isFiltered({ ...defaultLeadFilters, sort: "antiguos", page: 4 })).toBe(false);
    expect(isFiltered({ ...defaultLeadFilters, assignee: "mios" })).toBe(true);
    expect(isFiltered({ ...defaultLeadFilters, from: "2026-01-01" })).toBe(true);
  });
});
