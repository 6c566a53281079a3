import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { auditLog, leads, leadTallies } from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { LEAD_COUNT_CAP, LEAD_EXPORT_RULE } from "~/features/crm/lead-list-service.server";
import { loader as funnelLoader } from "~/routes/_staff/funnel";
import { loader as exportLoader } from "~/routes/_staff/lead-export";
import { requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import {
  createStaffMember,
  createTestUser,
  insertLeads as insertLeadRows,
  type LeadSeed,
  type TestUser,
} from "../setup/factories";

afterAll(closeDb);

// Every lead here carries this file's marker, and the searches include it.
const marker = `zq${randomUUID().slice(0, 8)}`;
const DAY = 24 * 60 * 60_000;

type FunnelData = Awaited<ReturnType<typeof funnelLoader>>;

async function panel(cookie: string, query: string) {
  const data: FunnelData = await funnelLoader(routeArgs(requestAs(cookie, `/funnel?tab=leads&${query}`)));
  if (!data.panel) throw new Error("no panel");
  return data.panel;
}

const names = (view: Awaited<ReturnType<typeof panel>>) => view.leads.map((lead) => lead.name);
const q = (text: string) => `q=${encodeURIComponent(`${text} ${marker}`)}`;

/** This file's leads: warm (score 50, no reasons), implantes / inmediato / alto, unless the seed says otherwise. */
function insertLeads(seeds: LeadSeed[]) {
  return insertLeadRows(
    seeds.map((seed) => ({ urgency: "inmediato", score: 50, level: "warm", reasons: [], ...seed })),
  );
}

let asesor: TestUser;
let otherAsesor: TestUser;
let patient: TestUser;
let jose: { id: string; phone: string };
let maria: { id: string };
let gonzalo: { id: string; createdAt: Date };
let ana: { id: string };

beforeAll(async () => {
  [asesor, otherAsesor, patient] = await Promise.all([
    createStaffMember(["asesor"], { firstName: "Javiera" }),
    createStaffMember(["asesor"], { firstName: "Tomás" }),
    createTestUser({ firstName: "Paula" }),
  ]);
  const now = Date.now();
  const inserted = await insertLeads([
    {
      name: `José González Rojas ${marker}`,
      email: `jose.${marker}@correo.example`,
      level: "hot",
      score: 85,
      status: "new",
      source: "web",
      treatment: "implantes",
      assignedTo: asesor.id,
      createdAt: new Date(now - 1 * DAY),
    },
    {
      name: `María Muñoz Pérez ${marker}`,
      email: `maria.${marker}@correo.example`,
      level: "warm",
      score: 55,
      status: "contacted",
      source: "whatsapp",
      treatment: "ortodoncia",
      createdAt: new Date(now - 3 * DAY),
      lastContactAt: new Date(now - 2 * DAY),
    },
    {
      name: `Gonzalo Rojas ${marker}`,
      level: "cold",
      score: 25,
      status: "lost",
      source: "social",
      treatment: "estetica",
      assignedTo: otherAsesor.id,
      createdAt: new Date(now - 10 * DAY),
      lastContactAt: new Date(now - 9 * DAY),
      // ADR 034: a formula after a comma, live when the file is opened with ',' as separator.
      message: 'Consulta,=HYPERLINK("http://evil.example","x")',
    },
    {
      // Formula injection attempt in a name and a message (the lead form accepts free text).
      name: `=HYPERLINK("http://evil.example","Ana") ${marker}`,
      level: "warm",
      score: 60,
      status: "qualified",
      source: "asistente",
      treatment: "evaluacion",
      createdAt: new Date(now - 5 * DAY),
      message: '@SUM(1+1); dijo "hola"\nsegunda línea',
    },
  ]);
  const [first, second, third, fourth] = inserted;
  if (!first || !second || !third || !fourth) throw new Error("leads not inserted");
  [jose, maria, gonzalo, ana] = [first, second, third, fourth];
});

describe("search", () => {
  it("folds accents and case: 'gonzalez' finds González, 'MUÑOZ' and 'munoz' find Muñoz", async () => {
    expect(names(await panel(asesor.cookie, q("gonzalez")))).toEqual([`José González Rojas ${marker}`]);
    expect(names(await panel(asesor.cookie, q("MUÑOZ")))).toEqual([`María Muñoz Pérez ${marker}`]);
    expect(names(await panel(asesor.cookie, q("munoz")))).toEqual([`María Muñoz Pérez ${marker}`]);
    expect(names(await panel(asesor.cookie, q("JOSÉ")))).toEqual([`José González Rojas ${marker}`]);
  });

  it("needs every word of a multi-word query, in any field and order", async () => {
    expect(names(await panel(asesor.cookie, q("gonz rojas")))).toEqual([
      `José González Rojas ${marker}`,
      `Gonzalo Rojas ${marker}`,
    ]);
    expect(names(await panel(asesor.cookie, q("rojas jose")))).toEqual([`José González Rojas ${marker}`]);
    expect(names(await panel(asesor.cookie, q("gonz perez")))).toEqual([]);
  });

  it("finds a phone however it is typed", async () => {
    const local = jose.phone.slice(4); // +569 XXXXXXXX
    for (const typed of [
      `+56 9 ${local.slice(0, 4)} ${local.slice(4)}`,
      `9${local}`,
      `9 ${local.slice(0, 4)}-${local.slice(4)}`,
      jose.phone,
    ]) {
      const view = await panel(asesor.cookie, `q=${encodeURIComponent(typed)}`);
      expect({ typed, ids: view.leads.map((lead) => lead.id) }).toEqual({ typed, ids: [jose.id] });
    }
  });

  it("finds an e-mail fragment, and LIKE wildcards are literal", async () => {
    const view = await panel(asesor.cookie, `q=${encodeURIComponent(`JOSE.${marker}@correo`)}`);
    expect(view.leads.map((lead) => lead.id)).toEqual([jose.id]);
    expect((await panel(asesor.cookie, `q=${encodeURIComponent(`${marker}%`)}`)).leads).toEqual([]);
    expect((await panel(asesor.cookie, `q=${encodeURIComponent(`j_se ${marker}`)}`)).leads).toEqual([]);
  });
});

const ids = (view: Awaited<ReturnType<typeof panel>>) => view.leads.map((lead) => lead.id);

describe("filters and sorting", () => {
  it("filters by level, status, source and treatment", async () => {
    const mine = `q=${marker}`;
    expect(ids(await panel(asesor.cookie, `${mine}&level=hot`))).toEqual([jose.id]);
    expect(ids(await panel(asesor.cookie, `${mine}&status=contacted`))).toEqual([maria.id]);
    expect(ids(await panel(asesor.cookie, `${mine}&source=social`))).toEqual([gonzalo.id]);
    expect(ids(await panel(asesor.cookie, `${mine}&treatment=evaluacion`))).toEqual([ana.id]);
    expect(ids(await panel(asesor.cookie, `${mine}&level=warm&status=qualified`))).toEqual([ana.id]);
    expect(ids(await panel(asesor.cookie, `${mine}&level=hot&source=social`))).toEqual([]);
  });

  it("filters by assignee: 'Mis leads' is the signed-in user's, 'Sin asignar' nobody's, or one asesor's", async () => {
    const mine = `q=${marker}`;
    expect(ids(await panel(asesor.cookie, `${mine}&assignee=mios`))).toEqual([jose.id]);
    expect(ids(await panel(otherAsesor.cookie, `${mine}&assignee=mios`))).toEqual([gonzalo.id]);
    expect(ids(await panel(asesor.cookie, `${mine}&assignee=sin-asignar`))).toEqual([maria.id, ana.id]);
    expect(ids(await panel(asesor.cookie, `${mine}&assignee=${otherAsesor.id}`))).toEqual([gonzalo.id]);
    const view = await panel(asesor.cookie, mine);
    expect(view.leads.find((lead) => lead.id === jose.id)?.assigneeName).toBe("Javiera Test");
    expect(view.leads.find((lead) => lead.id === maria.id)?.assigneeName).toBeNull();
    expect(view.assignees.map((option) => option.label)).toEqual(
      expect.arrayContaining(["Todos", "Mis leads", "Sin asignar", "Javiera Test", "Tomás Test"]),
    );
  });

  it("filters by creation date in the clinic's calendar, both ends included", async () => {
    const today = clinicDate(new Date());
    const from = addDays(today, -4);
    const view = await panel(asesor.cookie, `q=${marker}&from=${from}&to=${today}`);
    expect(ids(view)).toEqual([jose.id, maria.id]);
    // Gonzalo's own creation day (not "ten days before now": midnight may have passed since he was inserted).
    const day = clinicDate(gonzalo.createdAt);
    expect(ids(await panel(asesor.cookie, `q=${marker}&from=${day}&to=${day}`))).toEqual([gonzalo.id]);
  });

  it("sorts by newest, oldest, score and last contact (never contacted last)", async () => {
    const mine = `q=${marker}`;
    expect(ids(await panel(asesor.cookie, mine))).toEqual([jose.id, maria.id, ana.id, gonzalo.id]);
    expect(ids(await panel(asesor.cookie, `${mine}&sort=antiguos`))).toEqual([
      gonzalo.id,
      ana.id,
      maria.id,
      jose.id,
    ]);
    expect(ids(await panel(asesor.cookie, `${mine}&sort=puntaje`))).toEqual([
      jose.id,
      ana.id,
      maria.id,
      gonzalo.id,
    ]);
    expect(ids(await panel(asesor.cookie, `${mine}&sort=contacto`))).toEqual([
      maria.id,
      gonzalo.id,
      jose.id,
      ana.id,
    ]);
  });

  it("falls back to the defaults for invalid parameters and names them, never failing", async () => {
    const view = await panel(
      asesor.cookie,
      `q=${marker}&level=tibio&status=%3Cscript%3E&source=fax&assignee=1%27%20or%201%3D1&from=2026-02-30` +
        "&to=ayer&sort=nombre&page=-3",
    );
    expect(view.ignored).toEqual([
      "Nivel",
      "Estado",
      "Origen",
      "Asignado a",
      "Creado desde",
      "Creado hasta",
      "Ordenar por",
      "Página",
    ]);
    expect(view.filters).toMatchObject({ level: "todos", status: "todos", assignee: "todos", page: 1 });
    expect(view.leads).toHaveLength(4);
  });
});

describe("paging", () => {
  const pageMarker = `zp${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    const now = Date.now();
    await insertLeads(
      Array.from({ length: 30 }, (_, index) => ({
        name: `Paginado ${index + 1} ${pageMarker}`,
        createdAt: new Date(now - index * 60_000),
      })),
    );
  });

  it("shows 25 a page with the total, and the pages neither overlap nor miss a lead", async () => {
    const first = await panel(asesor.cookie, `q=${pageMarker}`);
    expect(first).toMatchObject({
      total: 30,
      totalCapped: false,
      page: 1,
      pageCount: 2,
      pageSize: 25,
      hasNextPage: true,
    });
    expect(first.leads).toHaveLength(25);
    expect(first.leads[0]?.name).toBe(`Paginado 1 ${pageMarker}`);
    const second = await panel(asesor.cookie, `q=${pageMarker}&page=2`);
    expect(second).toMatchObject({ page: 2, hasNextPage: false });
    expect(second.leads).toHaveLength(5);
    const all = new Set(first.leads.concat(second.leads).map((lead) => lead.id));
    expect(all.size).toBe(30);
    // The view's URL keeps the filters and the page.
    expect(second.query).toBe(`tab=leads&q=${pageMarker}&page=2`);
  });

  it("shows the last page for a page past the end", async () => {
    const view = await panel(asesor.cookie, `q=${pageMarker}&page=9`);
    expect(view.page).toBe(2);
    expect(view.leads).toHaveLength(5);
  });

  it(`counts up to ${LEAD_COUNT_CAP} matches and then says 'más de'`, async () => {
    const capMarker = `zc${randomUUID().slice(0, 8)}`;
    await insertLeads(
      Array.from({ length: LEAD_COUNT_CAP + 5 }, (_, index) => ({ name: `Tope ${index} ${capMarker}` })),
    );
    const view = await panel(asesor.cookie, `q=${capMarker}`);
    expect(view).toMatchObject({ total: LEAD_COUNT_CAP, totalCapped: true, hasNextPage: true });
    const last = await panel(asesor.cookie, `q=${capMarker}&page=41`);
    expect(last.leads).toHaveLength(LEAD_COUNT_CAP + 5 - 40 * 25);
    expect(last.hasNextPage).toBe(false);
  });
});

const tallyKey = (row: { level: string; status: string }) => `${row.level}/${row.status}`;

describe("counters", () => {
  it("keeps lead_tallies equal to the table through inserts, updates and deletes", async () => {
    const db = await getDb();
    const [extra] = await insertLeads([{ name: `Contador ${marker}`, level: "hot", status: "new" }]);
    await db.update(leads).set({ status: "converted", level: "cold" }).where(eq(leads.id, extra!.id));
    await db.update(leads).set({ name: "Sin cambio de nivel" }).where(eq(leads.id, extra!.id));
    const [gone] = await insertLeads([{ name: `Borrado ${marker}`, level: "warm", status: "lost" }]);
    await db.delete(leads).where(eq(leads.id, gone!.id));

    const actual = await db
      .select({ level: leads.level, status: leads.status, n: sql<number>`count(*)::int` })
      .from(leads)
      .groupBy(leads.level, leads.status);
    const tallies = await db.select().from(leadTallies);
    const nonZero = tallies.filter((row) => row.n !== 0);
    expect(new Map(nonZero.map((row) => [tallyKey(row), row.n]))).toEqual(
      new Map(actual.map((row) => [tallyKey(row), row.n])),
    );

    const data: FunnelData = await funnelLoader(routeArgs(requestAs(asesor.cookie, "/funnel?tab=leads")));
    const total = actual.reduce((sum, row) => sum + row.n, 0);
    expect(data.counters.total).toBe(total);
    expect(data.panel?.total).toBe(total);
    expect(data.panel?.totalCapped).toBe(false);
    const hot = actual.filter((row) => row.level === "hot").reduce((sum, row) => sum + row.n, 0);
    expect(data.counters.hot).toBe(hot);
  });
});

/** The rows of a CSV body (RFC 4180 quoting), for the assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ";") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += char;
  }
  return rows;
}

async function exportAs(cookie: string | undefined, query: string) {
  return exportLoader(routeArgs(requestAs(cookie, `/funnel/leads.csv?${query}`))) as Promise<Response>;
}

describe("CSV export", () => {
  it("streams the view as UTF-8 with a BOM, ; separated, phones as text, formulas neutralised", async () => {
    const dayBefore = clinicDate(new Date());
    const response = await exportAs(asesor.cookie, `tab=leads&q=${marker}&sort=antiguos`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // Named after the clinic's day of the export: the day before or after the request, should midnight pass in it.
    const fileNames = [dayBefore, clinicDate(new Date())].map(
      (day) => `attachment; filename="leads-${day}.csv"`,
    );
    expect(fileNames).toContain(response.headers.get("content-disposition"));
    expect(response.headers.get("cache-control")).toBe("no-store");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Array.from(bytes.slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith("\uFEFFNombre;Teléfono;E-mail;")).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual([
      "Nombre",
      "Teléfono",
      "E-mail",
      "Tratamiento",
      "Urgencia",
      "Presupuesto",
      "Puntaje",
      "Nivel",
      "Estado",
      "Origen",
      "Asignado a",
      "Creado",
      "Último contacto",
      "Mensaje",
    ]);
    // Only this view's leads (the paging and cap leads of this file carry other markers), oldest first.
    expect(rows.map((row) => row[0])).toEqual([
      `Gonzalo Rojas ${marker}`,
      `'=HYPERLINK("http://evil.example","Ana") ${marker}`,
      `María Muñoz Pérez ${marker}`,
      `José González Rojas ${marker}`,
    ]);
    const joseRow = rows[3]!;
    expect(joseRow[1]).toBe(`="${jose.phone}"`);
    expect(joseRow.slice(2, 11)).toEqual([
      `jose.${marker}@correo.example`,
      "Implantes dentales",
      "Lo antes posible",
      "Más de $1.500.000",
      "85",
      "Caliente",
      "Nuevo",
      "Web",
      "Javiera Test",
    ]);
    expect(joseRow[11]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(joseRow[12]).toBe("");
    expect(rows[1]![13]).toBe('\'@SUM(1+1); dijo "hola"\nsegunda línea');
    // The raw text of that cell is quoted (it holds ; " and a line break).
    expect(text).toContain('"\'@SUM(1+1); dijo ""hola""\nsegunda línea"');
    // ADR 034: the formula after a comma is neutralised too, and the field quoted.
    expect(rows[0]![13]).toBe(`Consulta,'=HYPERLINK("http://evil.example","x")`);
    expect(text).toContain(`"Consulta,'=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it("exports only the filtered rows", async () => {
    const response = await exportAs(asesor.cookie, `q=${marker}&assignee=sin-asignar&status=contacted`);
    const rows = parseCsv((await response.text()).replace(/^\uFEFF/, ""));
    expect(rows.slice(1).map((row) => row[0])).toEqual([`María Muñoz Pérez ${marker}`]);
  });

  it("writes the export to the audit log with who, from where and which view", async () => {
    const query = `q=${marker}&level=hot`;
    await (await exportAs(asesor.cookie, query)).text();
    const db = await getDb();
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, asesor.id), eq(auditLog.action, "lead.exported")));
    expect(rows.map((row) => row.details)).toContainEqual({
      filters: expect.objectContaining({ q: marker, level: "hot", page: 1 }),
    });
    expect(rows.at(-1)).toMatchObject({ actorRoles: "asesor", ip: "203.0.113.7" });
  });

  it("pages through the batches by keyset without losing or repeating a row, in every sort", async () => {
    const batchMarker = `zb${randomUUID().slice(0, 8)}`;
    const now = Date.now();
    // 2,100 leads: three batches of 1,000; many share a creation instant and a score, so the id breaks the ties.
    await insertLeads(
      Array.from({ length: 2_100 }, (_, index) => ({
        name: `Lote ${index} ${batchMarker}`,
        score: index % 7,
        createdAt: new Date(now - (index % 50) * 1000),
        lastContactAt: index % 3 === 0 ? null : new Date(now - (index % 11) * 1000),
      })),
    );
    for (const sort of ["recientes", "antiguos", "puntaje", "contacto"]) {
      const response = await exportAs(asesor.cookie, `q=${batchMarker}&sort=${sort}`);
      const rows = parseCsv((await response.text()).replace(/^\uFEFF/, "")).slice(1);
      const distinct = new Set(rows.map((row) => row[0])).size;
      const scores = rows.map((row) => Number(row[6]));
      const ordered = sort !== "puntaje" || scores.every((score, i) => i === 0 || scores[i - 1]! >= score);
      expect({ sort, rows: rows.length, distinct, ordered }).toEqual({
        sort,
        rows: 2_100,
        distinct: 2_100,
        ordered: true,
      });
    }
  });

  it("is refused to a patient (403) and sends an anonymous visitor to sign in", async () => {
    const asPatient = await exportAs(patient.cookie, `q=${marker}`).then(
      () => null,
      (error: unknown) => error,
    );
    expect(asPatient).toMatchObject({ init: { status: 403 } });
    const anonymous = await exportAs(undefined, `q=${marker}`).then(
      () => null,
      (error: unknown) => error,
    );
    expect(anonymous).toBeInstanceOf(Response);
    expect((anonymous as Response).status).toBe(302);
    expect((anonymous as Response).headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
  });
});

describe("cards", () => {
  it("flag 'Actualizado' when the person asked again after the last contact, and offer no contact on a converted lead", async () => {
    const db = await getDb();
    const now = Date.now();
    const [askedAgain, contactedSince, converted] = await insertLeads([
      { name: `Rosa Actualizada ${marker}`, status: "contacted", lastContactAt: new Date(now - 2 * DAY) },
      { name: `Rosa Recontactada ${marker}`, status: "contacted", lastContactAt: new Date(now - 60_000) },
      { name: `Rosa Convertida ${marker}`, status: "converted", lastContactAt: new Date(now - 3 * DAY) },
    ]);
    if (!askedAgain || !contactedSince || !converted) throw new Error("leads not inserted");
    // What a merged duplicate does (lead-service `mergeIntoOpenLead`): resubmitted_at moves.
    await db
      .update(leads)
      .set({ resubmittedAt: new Date(now - DAY) })
      .where(sql`${leads.id} in (${askedAgain.id}, ${contactedSince.id})`);

    const view = await panel(asesor.cookie, q("rosa"));
    const card = (id: string) => view.leads.find((lead) => lead.id === id);
    expect(card(askedAgain.id)).toMatchObject({ updatedSinceContact: true, canContact: true });
    expect(card(contactedSince.id)).toMatchObject({ updatedSinceContact: false, canContact: true });
    expect(card(converted.id)).toMatchObject({ updatedSinceContact: false, canContact: false });
  });
});

describe("CSV export limit", () => {
  it("refuses a flood of exports from one staff member with 429 and Retry-After, and leaves the others alone", async () => {
    const copier = await createStaffMember(["asesor"], { firstName: "Copiona" });
    for (let attempt = 0; attempt < LEAD_EXPORT_RULE.max; attempt += 1) {
      const response = await exportAs(copier.cookie, `q=${marker}`);
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    const refused = await exportAs(copier.cookie, `q=${marker}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/demasiadas exportaciones/);
    // Refused before anything was read or logged: the audit log has exactly the allowed exports.
    const logged = await (
      await getDb()
    )
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, copier.id), eq(auditLog.action, "lead.exported")));
    expect(logged).toHaveLength(LEAD_EXPORT_RULE.max);

    const other = await exportAs(otherAsesor.cookie, `q=${marker}`);
    expect(other.status).toBe(200);
    await other.body?.cancel();
  });
});
