import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { auditLog, leads } from "~/db/schema";
import { formatClinicTime } from "~/domain/format";
import { scoreLead, type Budget, type Treatment, type Urgency } from "~/domain/lead-scoring";
import { LeadPanel } from "~/features/crm/components/lead-panel";
import { agendaWindow } from "~/features/dentist/agenda-window";
import type { LeadPanelActionResult } from "~/features/crm/lead-list-dto";
import type { LeadTestActionData } from "~/features/staff/lead-test-dto";
import { PHONE_ERROR } from "~/lib/validation";
import { loader as agendaLoader } from "~/routes/_dentist/agenda";
import { action as funnelAction, loader as funnelLoader } from "~/routes/_staff/funnel";
import { action as testAction, loader as testLoader } from "~/routes/_staff/test-dashboard";
import { thrown, thrownStatus } from "../setup/route-results";
import { routeArgs, unwrap } from "../setup/route-args";
import { postAs, requestAs, uniquePhone } from "../setup/clients";
import {
  createStaffMember,
  createTestUser,
  insertAppointments,
  insertLeads as insertLeadRows,
  type TestUser,
} from "../setup/factories";

afterAll(closeDb);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type FunnelData = Awaited<ReturnType<typeof funnelLoader>>;

function stageCount(data: FunnelData, key: string): number {
  return data.stages.find((item) => item.key === key)?.count ?? 0;
}

type AgendaData = Awaited<ReturnType<typeof agendaLoader>>;

async function funnel(cookie: string, path = "/funnel"): Promise<FunnelData> {
  return funnelLoader(routeArgs(requestAs(cookie, path)));
}

let patient: TestUser;
let asesor: TestUser;

beforeAll(async () => {
  [patient, asesor] = await Promise.all([
    createTestUser({ firstName: "Paula" }),
    createStaffMember(["asesor"], { firstName: "Javiera" }),
  ]);
});

describe("access", () => {
  it("answers 403 to a patient on the three pages and on the actions", async () => {
    for (const [call, path] of [
      [agendaLoader, "/dentista"],
      [funnelLoader, "/funnel"],
      [testLoader, "/test"],
    ] as const) {
      expect(thrownStatus(await thrown(call(routeArgs(requestAs(patient.cookie, path)))))).toBe(403);
    }
    const leadId = randomUUID();
    const funnelPost = postAs(patient.cookie, "/funnel", { intent: "mark-contacted", leadId });
    expect(thrownStatus(await thrown(funnelAction(routeArgs(funnelPost))))).toBe(403);
    const testPost = postAs(patient.cookie, "/test", { intent: "scenario", scenario: "hot" });
    expect(thrownStatus(await thrown(testAction(routeArgs(testPost))))).toBe(403);
  });

  it("sends anonymous visitors to /auth with the way back", async () => {
    for (const [call, path] of [
      [agendaLoader, "/dentista"],
      [funnelLoader, "/funnel?tab=leads&q=ana"],
      [testLoader, "/test"],
    ] as const) {
      const error = await thrown(call(routeArgs(requestAs(undefined, path))));
      expect(error).toBeInstanceOf(Response);
      expect((error as Response).status).toBe(302);
      expect((error as Response).headers.get("location")).toBe(
        `/auth?redirectTo=${encodeURIComponent(path)}`,
      );
    }
    const post = postAs(undefined, "/funnel", { intent: "mark-contacted", leadId: randomUUID() });
    const error = await thrown(funnelAction(routeArgs(post)));
    expect(thrownStatus(error)).toBe(302);
  });

  it("keeps the dentist agenda for dentists and the staff pages for staff", async () => {
    const dentist = await createTestUser({ roles: ["dentista"] });
    expect(thrownStatus(await thrown(agendaLoader(routeArgs(requestAs(asesor.cookie, "/dentista")))))).toBe(
      403,
    );
    expect(thrownStatus(await thrown(funnelLoader(routeArgs(requestAs(dentist.cookie, "/funnel")))))).toBe(
      403,
    );
    expect(await testLoader(routeArgs(requestAs(asesor.cookie, "/test")))).toMatchObject({
      whatsApp: { clinicTestMode: true, log: [] },
    });
    const admin = await createStaffMember(["admin"]);
    expect((await funnel(admin.cookie)).tab).toBe("overview");
  });
});

interface LeadSeed {
  name: string;
  level: "hot" | "warm" | "cold";
  status: string;
  source: string;
  treatment: Treatment;
  urgency: Urgency;
  budget: Budget;
  email: string | null;
  createdAgo: number;
  contactedAgo: number | null;
}

async function insertLeads(seeds: LeadSeed[], now: Date) {
  return insertLeadRows(
    seeds.map((seed) => {
      const createdAt = new Date(now.getTime() - seed.createdAgo);
      const message = "Quisiera una evaluación para saber qué tratamiento me conviene y cuánto costaría.";
      const { score, reasons } = scoreLead({ ...seed, phone: "x", message });
      const contactedAt = seed.contactedAgo === null ? null : new Date(now.getTime() - seed.contactedAgo);
      return {
        name: seed.name,
        email: seed.email,
        treatment: seed.treatment,
        urgency: seed.urgency,
        budget: seed.budget,
        message,
        // The level is set explicitly so the counts do not depend on the scoring rules.
        score,
        level: seed.level,
        reasons,
        status: seed.status,
        source: seed.source,
        lastContactAt: contactedAt,
        firstContactAt: contactedAt,
        createdAt,
      };
    }),
  );
}

describe("/funnel", () => {
  const marker = `zq${randomUUID().slice(0, 8)}`;
  const base = { treatment: "implantes", urgency: "inmediato", budget: "alto" } as const;
  let inserted: Awaited<ReturnType<typeof insertLeads>>;

  let before: FunnelData;

  beforeAll(async () => {
    before = await funnel(asesor.cookie);
    const now = new Date();
    inserted = await insertLeads(
      [
        {
          ...base,
          name: `Camila ${marker} Rojas`,
          level: "hot",
          status: "new",
          source: "web",
          email: `camila.${marker}@correo.example`,
          createdAgo: 5 * MINUTE,
          contactedAgo: null,
        },
        {
          ...base,
          name: `Matías ${marker} González`,
          level: "hot",
          status: "converted",
          source: "whatsapp",
          email: null,
          createdAgo: 30 * MINUTE,
          contactedAgo: 10 * MINUTE,
        },
        {
          treatment: "ortodoncia",
          urgency: "1-mes",
          budget: "medio",
          name: `Valentina ${marker} Muñoz`,
          level: "warm",
          status: "contacted",
          source: "whatsapp",
          email: null,
          createdAgo: 2 * HOUR,
          contactedAgo: 1 * HOUR,
        },
        {
          treatment: "evaluacion",
          urgency: "evaluando",
          budget: "consultar",
          name: `Tomás ${marker} Pérez`,
          level: "cold",
          status: "qualified",
          source: "web",
          email: null,
          createdAgo: 3 * DAY,
          contactedAgo: null,
        },
        {
          treatment: "evaluacion",
          urgency: "evaluando",
          budget: "bajo",
          name: `Josefa ${marker} Díaz`,
          level: "cold",
          status: "lost",
          source: "social",
          email: null,
          createdAgo: 10 * DAY,
          contactedAgo: null,
        },
      ],
      now,
    );
  });

  it("counts the inserted leads in the overview and the panel counters", async () => {
    const after = await funnel(asesor.cookie);
    expect(after.tab).toBe("overview");
    expect(after.panel).toBeNull();
    expect(after.stages.map((item) => item.title)).toEqual([
      "Captura",
      "Contacto",
      "Calificación",
      "Conversión",
    ]);
    // Lower bounds here; the exact figures are the next test's.
    const delta = (key: keyof FunnelData["counters"]) => after.counters[key] - before.counters[key];
    expect({
      total: delta("total") >= 5,
      hot: delta("hot") >= 2,
      warm: delta("warm") >= 1,
      cold: delta("cold") >= 2,
      new: delta("new") >= 1,
      converted: delta("converted") >= 1,
      contacto: stageCount(after, "contacto") - stageCount(before, "contacto") >= 3,
      calificacion: stageCount(after, "calificacion") - stageCount(before, "calificacion") >= 2,
    }).toEqual({
      total: true,
      hot: true,
      warm: true,
      cold: true,
      new: true,
      converted: true,
      contacto: true,
      calificacion: true,
    });
  });

  it("computes every figure from the database (own database)", async () => {
    expect(before.counters.total).toBe(0);
    const after = await funnel(asesor.cookie);
    expect(after.counters).toEqual({ total: 5, hot: 2, warm: 1, cold: 2, new: 1, converted: 1 });
    expect(after.stages.map((item) => item.count)).toEqual([5, 3, 2, 1]);
    expect(after.stats.map((card) => [card.label, card.value])).toEqual([
      ["Total Leads", "5"],
      ["Leads Calientes", "2"],
      ["Conversiones", "1"],
      ["Tasa Conversión", "20,0%"],
      // The median of 20 min and 60 min (the two contacted leads).
      ["Tiempo Respuesta", "40 min"],
      ["WhatsApp", "2"],
    ]);
  });

  it("lists, searches and filters the leads", async () => {
    const all = await funnel(asesor.cookie, `/funnel?tab=leads&q=${marker}`);
    expect(all.tab).toBe("leads");
    const names = all.panel?.leads.map((lead) => lead.name) ?? [];
    expect(names).toHaveLength(5);
    // Newest first.
    expect(names[0]).toContain("Camila");

    const camila = all.panel?.leads[0];
    expect(camila).toMatchObject({
      levelLabel: "Caliente",
      statusLabel: "Nuevo",
      treatmentLabel: "Implantes dentales",
      urgencyLabel: "Lo antes posible",
      sourceLabel: "Web",
      createdAgo: "hace 5 min",
      lastContactAgo: null,
    });
    const phone = inserted[0]!.phone;
    expect(camila?.phone).toMatch(/^\+56 9 \d{4} \d{4}$/);
    expect(camila?.phoneHref).toBe(`tel:${phone}`);
    const whatsapp = new URL(camila!.whatsappHref);
    expect(whatsapp.origin + whatsapp.pathname).toBe(`https://wa.me/${phone.slice(1)}`);
    expect(whatsapp.searchParams.get("text")).toMatch(/^Hola Camila, /);
    // Only the fields the card needs leave the server.
    expect(Object.keys(camila!)).not.toContain("submissionId");
    expect(Object.keys(camila!)).not.toContain("consentAt");

    const matias = all.panel?.leads.find((lead) => lead.name.startsWith("Matías"));
    expect(matias).toMatchObject({
      createdAgo: "hace 30 min",
      lastContactAgo: "hace 10 min",
      sourceLabel: "WhatsApp",
    });
    const tomas = all.panel?.leads.find((lead) => lead.name.startsWith("Tomás"));
    expect(tomas?.createdAgo).toBe("hace 3 días");
    const valentina = all.panel?.leads.find((lead) => lead.name.startsWith("Valentina"));
    expect(valentina).toMatchObject({ createdAgo: "hace 2 horas", lastContactAgo: "hace 1 hora" });

    const hot = await funnel(asesor.cookie, `/funnel?q=${marker}&level=hot`);
    expect(hot.tab).toBe("leads");
    expect(hot.panel?.leads.map((lead) => lead.level)).toEqual(["hot", "hot"]);

    const converted = await funnel(
      asesor.cookie,
      `/funnel?tab=leads&q=${marker}&level=todos&status=converted`,
    );
    expect(converted.panel?.leads.map((lead) => lead.name)).toEqual([expect.stringContaining("Matías")]);

    const coldLost = await funnel(asesor.cookie, `/funnel?tab=leads&q=${marker}&level=cold&status=lost`);
    expect(coldLost.panel?.leads).toHaveLength(1);

    // By phone as people type it, and by e-mail.
    const typed = `9 ${phone.slice(4, 8)} ${phone.slice(8)}`;
    const byPhone = await funnel(asesor.cookie, `/funnel?tab=leads&q=${encodeURIComponent(typed)}`);
    expect(byPhone.panel?.leads.map((lead) => lead.id)).toEqual([inserted[0]!.id]);
    const byEmail = await funnel(asesor.cookie, `/funnel?tab=leads&q=CAMILA.${marker}%40correo`);
    expect(byEmail.panel?.leads.map((lead) => lead.id)).toEqual([inserted[0]!.id]);

    // LIKE wildcards typed in the search are literal characters.
    const wildcard = await funnel(asesor.cookie, `/funnel?tab=leads&q=${marker}%25`);
    expect(wildcard.panel?.leads).toEqual([]);

    // Unknown filter values fall back to "todos".
    const lenient = await funnel(asesor.cookie, `/funnel?tab=leads&q=${marker}&level=tibio&status=x`);
    expect(lenient.panel?.filters).toMatchObject({ q: marker, level: "todos", status: "todos" });
    expect(lenient.panel?.ignored).toEqual(["Nivel", "Estado"]);
    expect(lenient.panel?.leads).toHaveLength(5);
  });

  it("'Marcar contactado' and 'Agendar' set the status and stamp the last contact", async () => {
    const db = await getDb();
    // Its own lead, removed afterwards: the other tests of this block read the inserted leads and the exact counts,
    // in whatever order they run.
    const actionMarker = `zq${randomUUID().slice(0, 8)}`;
    const [lead] = await insertLeads(
      [
        {
          ...base,
          name: `Camila ${actionMarker} Rojas`,
          level: "hot",
          status: "new",
          source: "web",
          email: null,
          createdAgo: 5 * MINUTE,
          contactedAgo: null,
        },
      ],
      new Date(),
    );
    if (!lead) throw new Error("lead not inserted");
    try {
      const started = Date.now();
      const result = await funnelAction(
        routeArgs(
          postAs(asesor.cookie, "/funnel?tab=leads", {
            intent: "mark-contacted",
            leadId: lead.id,
            from: "new",
          }),
        ),
      );
      const { status, body } = unwrap<LeadPanelActionResult>(result);
      expect(status).toBe(200);
      expect(body).toMatchObject({ ok: true, data: { leadId: lead.id, status: "contacted" } });

      const [stored] = await db.select().from(leads).where(eq(leads.id, lead.id));
      expect(stored?.status).toBe("contacted");
      expect(stored?.lastContactAt?.getTime()).toBeGreaterThanOrEqual(started - 1000);
      const audit = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, asesor.id), eq(auditLog.action, "lead.status_changed")));
      expect(audit.map((row) => row.details)).toContainEqual({
        leadId: lead.id,
        from: "new",
        status: "contacted",
      });

      const view = await funnel(asesor.cookie, `/funnel?tab=leads&q=${actionMarker}&status=contacted`);
      const card = view.panel?.leads.find((item) => item.id === lead.id);
      expect(card).toMatchObject({ statusLabel: "Contactado", lastContactAgo: "hace menos de 1 min" });

      const scheduled = unwrap<LeadPanelActionResult>(
        await funnelAction(
          routeArgs(
            postAs(asesor.cookie, "/funnel", { intent: "schedule", leadId: lead.id, from: "contacted" }),
          ),
        ),
      );
      expect(scheduled.body).toMatchObject({ ok: true, data: { status: "scheduled" } });
      const [again] = await db.select({ status: leads.status }).from(leads).where(eq(leads.id, lead.id));
      expect(again?.status).toBe("scheduled");
    } finally {
      await db.delete(leads).where(eq(leads.id, lead.id));
    }
  });

  it("rejects unknown intents and malformed ids (400) and unknown leads (404)", async () => {
    const lead = inserted[1]!;
    const badIntent = unwrap<LeadPanelActionResult>(
      await funnelAction(
        routeArgs(postAs(asesor.cookie, "/funnel", { intent: "convert", leadId: lead.id, from: "new" })),
      ),
    );
    expect(badIntent.status).toBe(400);
    expect(badIntent.body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: "La acción solicitada no es válida.",
      fieldErrors: { intent: ["La acción solicitada no es válida."] },
    });

    const badId = unwrap<LeadPanelActionResult>(
      await funnelAction(
        routeArgs(postAs(asesor.cookie, "/funnel", { intent: "schedule", leadId: "1 or 1=1", from: "new" })),
      ),
    );
    expect(badId.status).toBe(400);
    expect(badId.body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: "El lead indicado no es válido.",
      fieldErrors: { leadId: ["El lead indicado no es válido."] },
    });

    const missing = await thrown(
      funnelAction(
        routeArgs(
          postAs(asesor.cookie, "/funnel", { intent: "schedule", leadId: randomUUID(), from: "new" }),
        ),
      ),
    );
    expect(thrownStatus(missing)).toBe(404);

    const db = await getDb();
    const [untouched] = await db.select({ status: leads.status }).from(leads).where(eq(leads.id, lead.id));
    expect(untouched?.status).toBe("converted");
  });

  it("answers 'No se encontraron leads' data as an empty list, and the page says it once", async () => {
    const none = await funnel(asesor.cookie, `/funnel?tab=leads&q=${randomUUID()}`);
    expect(none.panel?.leads).toEqual([]);
    expect(none.panel).toMatchObject({ total: 0, totalCapped: false, hasNextPage: false });
    // Issue 24, item 17: the summary and the empty box were two copies of the sentence.
    const Stub = createRoutesStub([
      {
        path: "/funnel",
        Component: () => createElement(LeadPanel, { panel: none.panel!, counters: none.counters! }),
      },
    ]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/funnel?tab=leads"] }));
    expect(html.match(/No se encontraron leads/g)).toHaveLength(1);
  });
});

describe("/dentista", () => {
  it("shows the signed-in dentist only their appointments of today and the next 6 days", async () => {
    const [dentistA, dentistB, agendaPatient, otherPatient] = await Promise.all([
      createTestUser({ roles: ["dentista"], firstName: "Andrés" }),
      createTestUser({ roles: ["dentista"], firstName: "Beatriz" }),
      createTestUser({ firstName: "Rosa" }),
      createTestUser({ firstName: "Elena" }),
    ]);
    const now = new Date();
    const window = agendaWindow(now);
    const rows = await insertAppointments([
      // In the window: soon, no treatment and no duration → "Consulta", 60 min.
      {
        patientId: agendaPatient.id,
        dentistId: dentistA.id,
        slug: null,
        status: "confirmed",
        startsAt: new Date(now.getTime() + 2 * HOUR),
        minutes: 60,
      },
      // In the window, cancelled: shown (muted), duration from the treatment.
      {
        patientId: agendaPatient.id,
        dentistId: dentistA.id,
        slug: "limpieza",
        status: "cancelled",
        startsAt: new Date(now.getTime() + 3 * DAY),
      },
      // In the window with its own duration.
      {
        patientId: agendaPatient.id,
        dentistId: dentistA.id,
        slug: "limpieza",
        durationMinutes: 90,
        status: "no_show",
        startsAt: new Date(now.getTime() + 4 * DAY),
      },
      // Outside: before today's start in Santiago, and after the seventh day.
      {
        patientId: agendaPatient.id,
        dentistId: dentistA.id,
        slug: null,
        startsAt: new Date(window.start.getTime() - HOUR),
        minutes: 30,
      },
      { patientId: agendaPatient.id, dentistId: dentistA.id, slug: null, startsAt: window.end, minutes: 30 },
      // Another dentist's appointment.
      {
        patientId: otherPatient.id,
        dentistId: dentistB.id,
        slug: null,
        startsAt: new Date(now.getTime() + 2 * HOUR),
        minutes: 60,
      },
    ]);

    const agendaA: AgendaData = await agendaLoader(routeArgs(requestAs(dentistA.cookie, "/dentista")));
    expect(agendaA.dentistName).toBe("Andrés");
    expect(agendaA.agenda.days).toHaveLength(7);
    expect(agendaA.agenda.days[0]).toMatchObject({ date: window.today, isToday: true });
    expect(agendaA.agenda.total).toBe(3);
    const listed = agendaA.agenda.days.flatMap((day) => day.appointments);
    expect(listed.map((item) => item.id)).toEqual([rows[0]!.id, rows[1]!.id, rows[2]!.id]);
    expect(listed[0]).toEqual({
      id: rows[0]!.id,
      time: formatClinicTime(rows[0]!.startsAt),
      startsAt: rows[0]!.startsAt.toISOString(),
      patientName: "Rosa Test",
      treatment: "Consulta",
      durationMinutes: 60,
      status: "confirmed",
      statusLabel: "Confirmada",
    });
    expect(listed[1]).toMatchObject({
      treatment: "Limpieza dental",
      durationMinutes: 45,
      statusLabel: "Cancelada",
    });
    expect(listed[2]).toMatchObject({ durationMinutes: 90, statusLabel: "No Asistió" });
    // Each appointment sits under the day it falls on in Santiago.
    for (const day of agendaA.agenda.days) {
      for (const item of day.appointments) {
        const local = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago" }).format(
          new Date(item.startsAt),
        );
        expect(local).toBe(day.date);
      }
    }

    const agendaB: AgendaData = await agendaLoader(routeArgs(requestAs(dentistB.cookie, "/dentista")));
    expect(agendaB.agenda.days.flatMap((day) => day.appointments).map((item) => item.id)).toEqual([
      rows[5]!.id,
    ]);

    const dentistC = await createTestUser({ roles: ["dentista"] });
    const empty: AgendaData = await agendaLoader(routeArgs(requestAs(dentistC.cookie, "/dentista")));
    expect(empty.agenda.total).toBe(0);
  });
});

async function runTest(fields: Record<string, string>) {
  return unwrap<LeadTestActionData>(await testAction(routeArgs(postAs(asesor.cookie, "/test", fields))));
}

describe("/test", () => {
  it("scores the three predefined scenarios 85 / 55 / 25", async () => {
    const expected = { hot: [85, "hot"], warm: [55, "warm"], cold: [25, "cold"] } as const;
    for (const [scenario, [score, level]] of Object.entries(expected)) {
      const { status, body } = await runTest({ intent: "scenario", scenario });
      expect(status).toBe(200);
      if (!body.ok) throw new Error(`scenario ${scenario} failed`);
      expect(body.data.result).toMatchObject({ score, level, expectedScore: score });
      expect(body.data.result.promise.title.length).toBeGreaterThan(0);
    }
    const hot = await runTest({ intent: "scenario", scenario: "hot" });
    if (!hot.body.ok) throw new Error("expected success");
    expect(hot.body.data.result.reasons).toEqual([
      "Necesidad inmediata",
      "Presupuesto adecuado",
      "Tratamiento de alto valor",
      "Consulta detallada",
    ]);
    expect(hot.body.data.result.promise.title).toContain("15 minutos");
  });

  it("scores a custom lead on the server without storing it", async () => {
    const phone = uniquePhone();
    const { status, body } = await runTest({
      intent: "custom",
      name: "Prueba Personalizada",
      phone: `${phone.slice(0, 3)} ${phone.slice(3, 4)} ${phone.slice(4, 8)} ${phone.slice(8)}`,
      email: "prueba@correo.example",
      age: "34",
      treatment: "estetica",
      urgency: "1-mes",
      budget: "bajo",
      message: "",
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ok: true,
      data: { result: { score: 55, level: "warm", expectedScore: null, label: "Prueba personalizada" } },
    });
    const db = await getDb();
    expect(await db.select().from(leads).where(eq(leads.phone, phone))).toEqual([]);
  });

  it("rejects a bad phone and other invalid fields with Spanish messages", async () => {
    const { status, body } = await runTest({
      intent: "custom",
      name: "Ana",
      phone: "12345",
      email: "no-es-correo",
      age: "200",
      treatment: "blanqueamiento",
      urgency: "inmediato",
      budget: "alto",
      message: "",
    });
    expect(status).toBe(400);
    if (body.ok) throw new Error("expected errors");
    expect(body.fieldErrors?.phone?.[0]).toBe(PHONE_ERROR);
    expect(body.fieldErrors?.email?.[0]).toMatch(/e-mail válido/);
    expect(body.fieldErrors?.age?.[0]).toBe("Ingresa una edad válida, entre 1 y 120 años.");
    expect(body.fieldErrors?.treatment?.[0]).toBe("Elige un tratamiento.");

    const unknown = await runTest({ intent: "scenario", scenario: "tibio" });
    expect(unknown.status).toBe(400);
    const noIntent = await runTest({ name: "x" });
    expect(noIntent.status).toBe(400);
  });
});

describe("test dashboard storage", () => {
  it("did not create leads from the test dashboard", async () => {
    // Runs the dashboard itself, so the check does not depend on the tests above having run first.
    for (const scenario of ["hot", "warm", "cold"]) {
      expect((await runTest({ intent: "scenario", scenario })).status).toBe(200);
    }
    const custom = await runTest({
      intent: "custom",
      name: "Prueba Personalizada",
      phone: uniquePhone(),
      email: "",
      age: "34",
      treatment: "estetica",
      urgency: "1-mes",
      budget: "bajo",
      message: "",
    });
    expect(custom.status).toBe(200);
    const db = await getDb();
    const names = ["Carolina Vega", "Diego Araya", "Patricia Soto", "Prueba Personalizada"];
    expect(await db.select({ id: leads.id }).from(leads).where(inArray(leads.name, names))).toEqual([]);
  });
});
