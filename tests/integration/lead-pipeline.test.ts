import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  auditLog,
  dentalinkSyncs,
  leadHistory,
  leads,
  staffAvailability,
  users,
  whatsAppMessages,
} from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { LEAD_CHANGE_REFUSED } from "~/domain/lead-permissions";
import { leadStatuses, stageRanks, type LeadStatus } from "~/domain/lead-pipeline";
import { scoreLead } from "~/domain/lead-scoring";
import { LeadPage } from "~/features/crm/components/lead-page";
import type { LeadPageActionResult, LeadPageData } from "~/features/crm/lead-page-dto";
import { listAsesores } from "~/features/crm/lead-assignment-repository.server";
import type { LeadActionResult } from "~/features/leads/lead-schema";
import { receiveWhatsAppInbound } from "~/features/leads/whatsapp-inbound-service.server";
import { parseWhatsAppInbound } from "~/features/messaging/whatsapp-inbound.server";
import { action as homeAction } from "~/routes/_public/home";
import { action as funnelAction, loader as funnelLoader } from "~/routes/_staff/funnel";
import { action as leadAction, loader as leadLoader } from "~/routes/_staff/lead-detail";
import { clientForm, postAs, requestAs, uniqueEmail, uniquePhone } from "../setup/clients";
import { thrown, thrownStatus } from "../setup/route-results";
import { routeArgs, unwrap } from "../setup/route-args";
import { createTestUser, insertLead, leadFormFields, type TestUser } from "../setup/factories";

// ADR 025: the pipeline through the lead page's action, optimistic concurrency, notes, the history,
// round-robin assignment, duplicate merge and who may do what. On PGlite each file has its own database.

afterAll(closeDb);

let asesor: TestUser;
let admin: TestUser;
let patient: TestUser;
let dentist: TestUser;

beforeAll(async () => {
  [asesor, admin, patient, dentist] = await Promise.all([
    createTestUser({ roles: ["asesor"], firstName: "Asesora" }),
    createTestUser({ roles: ["admin"], firstName: "Admin" }),
    createTestUser({ roles: ["paciente"] }),
    createTestUser({ roles: ["dentista"] }),
  ]);
});

async function post(user: TestUser, leadId: string, fields: Record<string, string>) {
  return unwrap<LeadPageActionResult>(
    await leadAction(routeArgs(postAs(user.cookie, `/funnel/leads/${leadId}`, fields), { id: leadId })),
  );
}

async function page(user: TestUser, leadId: string): Promise<LeadPageData> {
  return leadLoader(routeArgs(requestAs(user.cookie, `/funnel/leads/${leadId}`), { id: leadId }));
}

async function leadRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(leads).where(eq(leads.id, id));
  if (!row) throw new Error("no lead");
  return row;
}

async function historyOf(leadId: string) {
  const db = await getDb();
  return db.select().from(leadHistory).where(eq(leadHistory.leadId, leadId)).orderBy(asc(leadHistory.at));
}

const allowed: Record<LeadStatus, LeadStatus[]> = {
  new: ["contacted", "qualified", "scheduled", "lost"],
  contacted: ["qualified", "scheduled", "lost"],
  qualified: ["scheduled", "lost"],
  scheduled: ["converted", "lost"],
  converted: [],
  lost: ["contacted"],
};

/** One requested move on a fresh lead in `from`, and everything it left behind. */
async function tryMove(from: LeadStatus, to: LeadStatus) {
  const lead = await insertLead({ status: from, lostReason: from === "lost" ? "precio" : null });
  const fields: Record<string, string> = { intent: "transition", from, to };
  if (to === "lost") fields.reason = "otra-clinica";
  const answer = await post(asesor, lead.id, fields);
  const db = await getDb();
  const audits = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "lead.status_changed"), eq(auditLog.actorId, asesor.id)));
  return {
    ...answer,
    stored: await leadRow(lead.id),
    history: await historyOf(lead.id),
    audited: audits.some((row) => row.details.leadId === lead.id),
  };
}

describe("pipeline transitions through the lead page", () => {
  const pairs = leadStatuses.flatMap((from) => leadStatuses.map((to) => [from, to] as const));
  const allowedPairs = pairs.filter(([from, to]) => allowed[from].includes(to));
  const refusedPairs = pairs.filter(([from, to]) => !allowed[from].includes(to));

  it("covers all 36 pairs", () => {
    expect(allowedPairs.length + refusedPairs.length).toBe(36);
    expect(allowedPairs).toHaveLength(12);
  });

  it.each(allowedPairs)("allows %s → %s, with history, audit and contact stamps", async (from, to) => {
    const started = Date.now();
    const { status, body, stored, history, audited } = await tryMove(from, to);
    expect({ status, ok: body.ok }).toEqual({ status: 200, ok: true });
    expect(stored.status).toBe(to);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ kind: "status", actorId: asesor.id, details: { from, to } });
    expect(audited).toBe(true);
    // Contacted and scheduled stamp the last contact; qualified does not.
    const stamps = to === "contacted" || to === "scheduled";
    expect(stored.lastContactAt === null).toBe(!stamps);
    expect(stored.firstContactAt === null).toBe(!stamps);
    expect(stored.lastContactAt?.getTime() ?? started).toBeGreaterThanOrEqual(started - 1000);
    expect(stored.lostReason).toBe(to === "lost" ? "otra-clinica" : null);
    // The funnel's stages are cumulative: the furthest stage never drops (a lost lead keeps what it reached).
    expect(stored.furthestStage).toBe(Math.max(stageRanks[from], stageRanks[to]));
  });

  it.each(refusedPairs)("refuses %s → %s and changes nothing", async (from, to) => {
    const { status, body, stored, history, audited } = await tryMove(from, to);
    expect(status).toBe(409);
    expect(body).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(stored.status).toBe(from);
    expect(history).toHaveLength(0);
    expect(audited).toBe(false);
  });

  it("refuses losing a lead without a reason, or with one not on the list", async () => {
    const lead = await insertLead();
    for (const reason of [undefined, "", "me cae mal"]) {
      const fields: Record<string, string> = { intent: "transition", from: "new", to: "lost" };
      if (reason !== undefined) fields.reason = reason;
      const { status, body } = await post(asesor, lead.id, fields);
      expect(status).toBe(400);
      expect(body).toMatchObject({ ok: false, message: "Elige el motivo por el que se perdió el lead." });
    }
    expect((await leadRow(lead.id)).status).toBe("new");
    expect(await historyOf(lead.id)).toHaveLength(0);
  });

  it("refuses a change made from a stale status: the second of two staff loses, visibly", async () => {
    const lead = await insertLead();
    const first = await post(asesor, lead.id, { intent: "transition", from: "new", to: "contacted" });
    expect(first.status).toBe(200);
    // Another asesor, still seeing 'Nuevo', tries to qualify it.
    const second = await post(admin, lead.id, { intent: "transition", from: "new", to: "qualified" });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      ok: false,
      code: "CONFLICT",
      message: expect.stringContaining("ahora está «Contactado»"),
    });
    expect((await leadRow(lead.id)).status).toBe("contacted");
    expect(await historyOf(lead.id)).toHaveLength(1);
  });

  it("lets exactly one of two simultaneous changes win", async () => {
    const lead = await insertLead();
    const results = await Promise.all([
      post(asesor, lead.id, { intent: "transition", from: "new", to: "contacted" }),
      post(admin, lead.id, { intent: "transition", from: "new", to: "lost", reason: "precio" }),
    ]);
    expect(results.map((result) => result.status).toSorted()).toEqual([200, 409]);
    const winner = results[0]!.status === 200 ? "contacted" : "lost";
    expect((await leadRow(lead.id)).status).toBe(winner);
    expect(await historyOf(lead.id)).toHaveLength(1);
  });

  it("'Marcar contactado' records a contact on a lead further along without moving it, reopens a lost one", async () => {
    const qualified = await insertLead({ status: "qualified" });
    const kept = await post(asesor, qualified.id, { intent: "contact", from: "qualified" });
    expect(kept.body).toMatchObject({ ok: true, data: { status: "qualified" } });
    const stored = await leadRow(qualified.id);
    expect(stored.status).toBe("qualified");
    expect(stored.lastContactAt).not.toBeNull();
    expect((await historyOf(qualified.id))[0]!.details).toEqual({
      from: "qualified",
      to: "qualified",
      contact: true,
    });

    const lost = await insertLead({ status: "lost", lostReason: "no-responde" });
    const reopened = await post(asesor, lost.id, { intent: "contact", from: "lost" });
    expect(reopened.body).toMatchObject({ ok: true, data: { status: "contacted" } });
    expect(await leadRow(lost.id)).toMatchObject({ status: "contacted", lostReason: null });

    const converted = await insertLead({ status: "converted" });
    const refused = await post(asesor, converted.id, { intent: "contact", from: "converted" });
    expect(refused.status).toBe(409);
    expect((await leadRow(converted.id)).lastContactAt).toBeNull();
  });

  it("keeps the first contact when later contacts move the last one", async () => {
    const lead = await insertLead();
    await post(asesor, lead.id, { intent: "transition", from: "new", to: "contacted" });
    const first = (await leadRow(lead.id)).firstContactAt;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await post(asesor, lead.id, { intent: "transition", from: "contacted", to: "qualified" });
    expect((await leadRow(lead.id)).lastContactAt?.getTime()).toBe(first?.getTime());
    await post(asesor, lead.id, { intent: "transition", from: "qualified", to: "scheduled" });
    const stored = await leadRow(lead.id);
    expect(stored.firstContactAt?.getTime()).toBe(first?.getTime());
    expect(stored.lastContactAt!.getTime()).toBeGreaterThan(first!.getTime());
  });

  it("answers 400 to an unknown intent or status, and 404 to an unknown lead", async () => {
    const lead = await insertLead();
    expect((await post(asesor, lead.id, { intent: "delete" })).status).toBe(400);
    expect((await post(asesor, lead.id, { intent: "transition", from: "new", to: "won" })).status).toBe(400);
    const missing = randomUUID();
    const gone = await post(asesor, missing, { intent: "transition", from: "new", to: "contacted" });
    expect(gone.status).toBe(404);
    expect(thrownStatus(await thrown(page(asesor, missing)))).toBe(404);
    expect(
      thrownStatus(
        await thrown(leadLoader(routeArgs(requestAs(asesor.cookie, "/funnel/leads/x"), { id: "x" }))),
      ),
    ).toBe(404);
  });
});

describe("who may open and change a lead", () => {
  it("refuses the page and its actions to a patient and to a dentist, as /funnel does", async () => {
    const lead = await insertLead();
    for (const user of [patient, dentist]) {
      expect(thrownStatus(await thrown(page(user, lead.id)))).toBe(403);
      const attempt = thrown(
        leadAction(
          routeArgs(
            postAs(user.cookie, `/funnel/leads/${lead.id}`, {
              intent: "transition",
              from: "new",
              to: "contacted",
            }),
            { id: lead.id },
          ),
        ),
      );
      expect(thrownStatus(await attempt)).toBe(403);
    }
    const anonymous = await thrown(
      leadLoader(routeArgs(requestAs(undefined, `/funnel/leads/${lead.id}`), { id: lead.id })),
    );
    expect(thrownStatus(anonymous)).toBe(302);
    expect((await leadRow(lead.id)).status).toBe("new");
  });

  it("lets an admin reassign a lead, with history and audit", async () => {
    const other = await createTestUser({ roles: ["asesor"], firstName: "Bruno" });
    const lead = await insertLead({ assignedTo: asesor.id });
    const { status, body } = await post(admin, lead.id, { intent: "assign", assigneeId: other.id });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, message: "Lead asignado a Bruno Test." });
    expect((await leadRow(lead.id)).assignedTo).toBe(other.id);
    const [entry] = await historyOf(lead.id);
    expect(entry).toMatchObject({
      kind: "assignment",
      actorId: admin.id,
      details: { from: asesor.id, to: other.id },
    });
    const db = await getDb();
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, "lead.assigned"));
    expect(audit.map((row) => row.details)).toContainEqual({
      leadId: lead.id,
      from: asesor.id,
      to: other.id,
    });

    const view = await page(admin, lead.id);
    expect(view.lead.assignee).toEqual({ id: other.id, name: "Bruno Test" });
    expect(view.history[0]).toMatchObject({ kind: "assignment", title: "Asignado a Bruno Test" });
  });

  it("refuses a reassignment by an asesor (the attack: the form field posted by hand)", async () => {
    const lead = await insertLead();
    const { status, body } = await post(asesor, lead.id, { intent: "assign", assigneeId: asesor.id });
    expect(status).toBe(403);
    expect(body).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect((await leadRow(lead.id)).assignedTo).toBeNull();
    expect(await historyOf(lead.id)).toHaveLength(0);
  });

  it("refuses assigning to someone who is not an active asesor", async () => {
    const lead = await insertLead();
    for (const target of [patient.id, dentist.id, randomUUID()]) {
      const { status } = await post(admin, lead.id, { intent: "assign", assigneeId: target });
      expect(status).toBe(400);
    }
    expect((await leadRow(lead.id)).assignedTo).toBeNull();
  });

  it("lets an asesor set their own away flag but not another's; an admin sets anyone's", async () => {
    const lead = await insertLead();
    const other = await createTestUser({ roles: ["asesor"], firstName: "Carla" });
    const own = await post(asesor, lead.id, { intent: "availability", userId: asesor.id, away: "1" });
    expect(own.body).toMatchObject({ ok: true });
    expect((await page(asesor, lead.id)).viewer.away).toBe(true);
    await post(asesor, lead.id, { intent: "availability", userId: asesor.id, away: "0" });

    const attack = await post(asesor, lead.id, { intent: "availability", userId: other.id, away: "1" });
    expect(attack.status).toBe(403);
    const byAdmin = await post(admin, lead.id, { intent: "availability", userId: other.id, away: "1" });
    expect(byAdmin.status).toBe(200);
    const team = await listAsesores(await getDb());
    expect(team.find((row) => row.id === other.id)?.away).toBe(true);
    expect(team.find((row) => row.id === asesor.id)?.away).toBe(false);
    await post(admin, lead.id, { intent: "availability", userId: other.id, away: "0" });
  });
});

async function auditsOf(leadId: string) {
  const db = await getDb();
  return db
    .select()
    .from(auditLog)
    .where(sql`${auditLog.details}->>'leadId' = ${leadId}`);
}

async function syncsOf(leadId: string) {
  const db = await getDb();
  return db.select().from(dentalinkSyncs).where(eq(dentalinkSyncs.leadId, leadId));
}

async function postPanel(user: TestUser, fields: Record<string, string>) {
  return unwrap<{ ok: boolean; code?: string; message?: string }>(
    await funnelAction(routeArgs(postAs(user.cookie, "/funnel", fields))),
  );
}

function syncFields(leadId: string) {
  return {
    intent: "dentalink-sync",
    submissionId: randomUUID(),
    leadId,
    firstName: "Lead",
    lastName: "de Prueba",
    email: uniqueEmail("agenda"),
    phone: uniquePhone(),
    birthDate: "1985-01-20",
    treatmentType: "implantes",
    appointmentDate: addDays(clinicDate(new Date()), 30),
    appointmentTime: "15:00",
    dentistId: "dr-araya",
  };
}

describe("a lead assigned to another asesor (issue 19: the attack)", () => {
  let colleague: TestUser;
  beforeAll(async () => {
    colleague = await createTestUser({ roles: ["asesor"], firstName: "Beatriz" });
  });

  const refused = { ok: false, code: "FORBIDDEN", message: LEAD_CHANGE_REFUSED };

  it("refuses a colleague moving, losing, annotating or marking contacted the lead: 403, nothing written", async () => {
    const lead = await insertLead({ assignedTo: asesor.id });
    const attempts: Array<Record<string, string>> = [
      { intent: "transition", from: "new", to: "qualified" },
      { intent: "transition", from: "new", to: "lost", reason: "precio" },
      { intent: "contact", from: "new" },
      { intent: "note", text: "Lo llamo yo." },
    ];
    for (const fields of attempts) {
      const { status, body } = await post(colleague, lead.id, fields);
      expect([fields.intent, status]).toEqual([fields.intent, 403]);
      expect(body).toMatchObject(refused);
    }
    for (const intent of ["mark-contacted", "schedule"]) {
      const { status, body } = await postPanel(colleague, { leadId: lead.id, intent, from: "new" });
      expect([intent, status]).toEqual([intent, 403]);
      expect(body).toMatchObject(refused);
    }
    const after = await leadRow(lead.id);
    expect(after).toMatchObject({
      status: "new",
      assignedTo: asesor.id,
      lastContactAt: null,
      firstContactAt: null,
      updatedAt: lead.updatedAt,
    });
    expect(await historyOf(lead.id)).toEqual([]);
    expect(await auditsOf(lead.id)).toEqual([]);
  });

  it("refuses a colleague booking the lead in Dentalink: 403 before anything reaches Dentalink", async () => {
    const lead = await insertLead({ assignedTo: asesor.id });
    const { status, body } = await postPanel(colleague, syncFields(lead.id));
    expect(status).toBe(403);
    expect(body).toMatchObject(refused);
    expect(await syncsOf(lead.id)).toEqual([]);
    expect((await leadRow(lead.id)).status).toBe("new");
  });

  it("lets the assignee and an admin change it, and any asesor an unassigned lead, which stays unassigned", async () => {
    const lead = await insertLead({ assignedTo: asesor.id });
    expect((await post(asesor, lead.id, { intent: "transition", from: "new", to: "qualified" })).status).toBe(
      200,
    );
    expect((await post(admin, lead.id, { intent: "note", text: "Revisado." })).status).toBe(200);
    expect((await postPanel(admin, { leadId: lead.id, intent: "schedule", from: "qualified" })).status).toBe(
      200,
    );
    expect((await leadRow(lead.id)).status).toBe("scheduled");

    const unassigned = await insertLead();
    expect((await post(colleague, unassigned.id, { intent: "contact", from: "new" })).status).toBe(200);
    expect((await post(colleague, unassigned.id, { intent: "note", text: "Llamé." })).status).toBe(200);
    expect(await leadRow(unassigned.id)).toMatchObject({ status: "contacted", assignedTo: null });
  });

  it("lets a colleague read the lead but hides the changes they may not make", async () => {
    const lead = await insertLead({ assignedTo: asesor.id, name: "Lead Ajeno" });
    const theirs = await page(colleague, lead.id);
    expect(theirs.lead.name).toBe("Lead Ajeno");
    expect(theirs.canChange).toBe(false);
    expect((await page(asesor, lead.id)).canChange).toBe(true);
    expect((await page(admin, lead.id)).canChange).toBe(true);

    const Stub = createRoutesStub([
      { path: "/", Component: () => createElement(LeadPage, { page: theirs }) },
    ]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/"] }));
    expect(html).toContain(LEAD_CHANGE_REFUSED);
    for (const action of ["Marcar contactado", "Agregar nota", "Marcar perdido", "Agendar"]) {
      expect(html).not.toContain(action);
    }

    const search = `/funnel?tab=leads&q=${encodeURIComponent("Lead Ajeno")}`;
    const cards = async (user: TestUser) => {
      const data = await funnelLoader(routeArgs(requestAs(user.cookie, search)));
      return data.panel!.leads.filter((card) => card.id === lead.id);
    };
    expect((await cards(colleague)).map((card) => card.canChange)).toEqual([false]);
    expect((await cards(asesor)).map((card) => card.canChange)).toEqual([true]);
  });
});

describe("notes", () => {
  it("stores a note with its author, as text, and renders markup as text", async () => {
    const lead = await insertLead();
    const text = '<script>alert("x")</script><img src=x onerror=alert(1)> llamar el lunes';
    const { status } = await post(asesor, lead.id, { intent: "note", text });
    expect(status).toBe(200);
    const [entry] = await historyOf(lead.id);
    expect(entry).toMatchObject({ kind: "note", text, actorId: asesor.id });

    const view = await page(asesor, lead.id);
    expect(view.history[0]).toMatchObject({ kind: "note", body: text, actorName: "Asesora Test" });
    const Stub = createRoutesStub([{ path: "/", Component: () => createElement(LeadPage, { page: view }) }]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/"] }));
    expect(html).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;",
    );
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
  });

  it("refuses an empty note and one over 2,000 characters", async () => {
    const lead = await insertLead();
    expect((await post(asesor, lead.id, { intent: "note", text: "   " })).status).toBe(400);
    const long = await post(asesor, lead.id, { intent: "note", text: "a".repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ message: "La nota puede tener hasta 2.000 caracteres." });
    expect((await post(asesor, lead.id, { intent: "note", text: "a".repeat(2000) })).status).toBe(200);
    expect(await historyOf(lead.id)).toHaveLength(1);
  });
});

describe("the furthest stage (cumulative funnel)", () => {
  it("is kept by the database whoever changes the status, and never goes down", async () => {
    const db = await getDb();
    const lead = await insertLead({ status: "scheduled" });
    expect(lead.furthestStage).toBe(3);
    // A writer outside the pipeline (a script, a later feature) moves it back and loses it: the stage stays.
    await db
      .update(leads)
      .set({ status: "lost", lostReason: "precio", furthestStage: 0 })
      .where(eq(leads.id, lead.id));
    expect((await leadRow(lead.id)).furthestStage).toBe(3);
    // A first contact recorded on a new lead counts as reaching 'Contacto'.
    const fresh = await insertLead();
    await db.update(leads).set({ firstContactAt: new Date() }).where(eq(leads.id, fresh.id));
    expect((await leadRow(fresh.id)).furthestStage).toBe(1);
  });

  it("is backfilled by the migration from the status, the first contact and the status history", async () => {
    const db = await getDb();
    const qualifiedThenLost = await insertLead({ status: "lost", lostReason: "precio" });
    const reached: Array<[LeadStatus, LeadStatus]> = [
      ["new", "contacted"],
      ["contacted", "qualified"],
      ["qualified", "lost"],
    ];
    await db.insert(leadHistory).values(
      reached.map(([from, to]) => ({
        leadId: qualifiedThenLost.id,
        kind: "status",
        text: "",
        details: { from, to },
        at: new Date(),
      })),
    );
    const contactedThenLost = await insertLead({
      status: "lost",
      lostReason: "precio",
      firstContactAt: new Date(),
    });
    const converted = await insertLead({ status: "converted" });
    const untouched = await insertLead({ status: "lost", lostReason: "no-responde" });
    const ids = [qualifiedThenLost.id, contactedThenLost.id, converted.id, untouched.id];
    // As the rows were before migration 0016: no stage yet (the trigger is what would refuse this).
    await db.execute(sql`alter table leads disable trigger leads_furthest_stage`);
    try {
      await db.update(leads).set({ furthestStage: 0 }).where(inArray(leads.id, ids));
    } finally {
      await db.execute(sql`alter table leads enable trigger leads_furthest_stage`);
    }
    const migration = readFileSync(
      new URL("../../app/db/migrations/0017_lead_furthest_stage.sql", import.meta.url),
      "utf8",
    );
    const backfill = migration.split("--> statement-breakpoint").at(-1)!;
    expect(backfill).toMatch(/^\s*(--.*\n)*UPDATE "leads" SET "furthest_stage"/);
    await db.execute(sql.raw(backfill));
    const stages = await db
      .select({ id: leads.id, stage: leads.furthestStage })
      .from(leads)
      .where(inArray(leads.id, ids));
    expect(new Map(stages.map((row) => [row.id, row.stage]))).toEqual(
      new Map([
        [qualifiedThenLost.id, 2],
        [contactedThenLost.id, 1],
        [converted.id, 4],
        [untouched.id, 0],
      ]),
    );
  });
});

describe("the lead page's WhatsApp messages", () => {
  it("are read through an index on lead_id, not by scanning whatsapp_messages", async () => {
    const db = await getDb();
    const lead = await insertLead();
    const plan = await db.transaction(async (tx) => {
      // Without the choice of a scan, the plan shows whether an index on lead_id exists at all.
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = await tx.execute(
        sql`explain select * from whatsapp_messages where lead_id = ${lead.id} order by created_at desc`,
      );
      return JSON.stringify(result);
    });
    expect(plan).toContain("whatsapp_messages_lead_id_created_at_idx");
    expect(plan).not.toMatch(/Seq Scan on whatsapp_messages/);
  });
});

describe("history", () => {
  it("merges every source, newest first", async () => {
    const db = await getDb();
    const base = Date.now() - 60 * 60_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    const lead = await insertLead({ createdAt: at(0), consentAt: at(0), updatedAt: at(0) });
    await db.insert(whatsAppMessages).values({
      id: randomUUID(),
      purpose: "lead-patient",
      leadId: lead.id,
      toPhone: lead.phone.slice(1),
      kind: "text",
      text: "Gracias por escribirnos",
      status: "delivered",
      createdAt: at(1),
    });
    await db.insert(leadHistory).values({
      leadId: lead.id,
      kind: "whatsapp-inbound",
      text: "¿Tienen hora el sábado?",
      at: at(2),
    });
    await db.insert(dentalinkSyncs).values({
      submissionId: randomUUID(),
      actorId: asesor.id,
      leadId: lead.id,
      mode: "mock",
      request: {},
      outcome: "failed",
      message: "No se pudo sincronizar",
      errors: ["El dentista elegido no está disponible en Dentalink"],
      createdAt: at(4),
      finishedAt: at(4),
    });
    // Status, note and assignment through the action, now (after every row above).
    await post(asesor, lead.id, { intent: "transition", from: "new", to: "contacted" });
    await post(asesor, lead.id, { intent: "note", text: "Prefiere la tarde" });
    await post(admin, lead.id, { intent: "assign", assigneeId: asesor.id });

    const view = await page(asesor, lead.id);
    expect(view.history.map((entry) => entry.kind)).toEqual([
      "assignment",
      "note",
      "status",
      "dentalink",
      "whatsapp-inbound",
      "whatsapp-outbound",
      "created",
    ]);
    const byKind = Object.fromEntries(view.history.map((entry) => [entry.kind, entry]));
    expect(byKind.status).toMatchObject({ title: "Estado: Nuevo → Contactado", actorName: "Asesora Test" });
    expect(byKind["whatsapp-outbound"]).toMatchObject({
      body: "Gracias por escribirnos",
      badge: { label: "Entregado", tone: "good" },
    });
    expect(byKind.dentalink).toMatchObject({ badge: { label: "Falló", tone: "bad" } });
    expect(byKind.created).toMatchObject({ title: "Lead creado (Web)" });
    const times = view.history.map((entry) => entry.at);
    expect(times).toEqual(times.toSorted().toReversed());
  });

  it("shows the fields, the score's reasons, the allowed moves and the card actions", async () => {
    const lead = await insertLead({
      name: "Valentina Soto",
      phone: "+56987651234",
      email: "vale@example.com",
    });
    const view = await page(asesor, lead.id);
    expect(view.lead).toMatchObject({
      name: "Valentina Soto",
      phone: "+56 9 8765 1234",
      phoneHref: "tel:+56987651234",
      email: "vale@example.com",
      treatmentLabel: "Implantes dentales",
      statusLabel: "Nuevo",
      reasons: lead.reasons,
      createdAgo: "hace menos de 1 min",
      lastContactAgo: null,
    });
    expect(view.lead.whatsappHref).toMatch(/^https:\/\/wa\.me\/56987651234\?text=Hola%20Valentina%2C/);
    expect(view.actions.map((action) => action.to)).toEqual(["contacted", "qualified", "scheduled", "lost"]);
    expect(view.scheduleHref).toBe(`/funnel?tab=dentalink&lead=${lead.id}`);
    expect(view.asesores).toEqual([]);
    expect((await page(admin, lead.id)).asesores.length).toBeGreaterThan(0);
  });
});

// Fresh addresses so the per-address hourly budget is not what is tested here.
async function submitLead(fields: Record<string, string>) {
  return unwrap<LeadActionResult>(await homeAction(routeArgs(clientForm("/?index", fields))));
}

function leadForm(overrides: Record<string, string> = {}) {
  return leadFormFields({
    name: "Paula Díaz",
    email: uniqueEmail("paula"),
    treatment: "ortodoncia",
    urgency: "3-meses",
    budget: "medio",
    message: "Quiero saber el valor de los brackets.",
    ...overrides,
  });
}

async function leadsWith(phone: string) {
  const db = await getDb();
  return db.select().from(leads).where(eq(leads.phone, phone));
}

describe("duplicate merge", () => {
  it("merges a request with the same phone typed another way, re-scored with the higher urgency", async () => {
    const form = leadForm();
    const first = await submitLead(form);
    expect(first.body.ok).toBe(true);
    const [original] = await leadsWith(form.phone);
    const digits = form.phone.slice(4);
    const again = leadForm({
      phone: `9 ${digits.slice(0, 4)} ${digits.slice(4)}`,
      urgency: "inmediato",
      email: "",
      message: "¿Puedo ir esta semana?",
      source: "asistente",
    });
    const second = await submitLead(again);
    // The same success as for a new lead: nothing tells the submitter a lead exists.
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      ok: true,
      data: { promise: expect.objectContaining({ title: expect.any(String) }) },
    });
    const stored = await leadsWith(form.phone);
    expect(stored).toHaveLength(1);
    const merged = stored[0]!;
    expect(merged.urgency).toBe("inmediato");
    expect(merged.score).toBeGreaterThan(original!.score);
    expect(merged.score).toBe(
      scoreLead({
        treatment: "ortodoncia",
        urgency: "inmediato",
        budget: "medio",
        phone: form.phone,
        email: form.email,
        message: original!.message,
      }).score,
    );
    expect(merged.resubmittedAt).not.toBeNull();
    const history = await historyOf(merged.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ kind: "duplicate", text: "¿Puedo ir esta semana?", actorId: null });
    expect(history[0]!.details).toMatchObject({
      source: "asistente",
      urgency: "inmediato",
      treatment: "ortodoncia",
    });

    const view = await page(asesor, merged.id);
    expect(view.lead.updated).not.toBeNull();
    expect(view.history[0]).toMatchObject({ kind: "duplicate", badge: { label: "Actualizado" } });
  });

  it("merges a request with the same e-mail in another case, and keeps the higher urgency it had", async () => {
    const email = uniqueEmail("mayus");
    const form = leadForm({ email, urgency: "inmediato" });
    await submitLead(form);
    await submitLead(leadForm({ email: email.toUpperCase(), urgency: "evaluando" }));
    const db = await getDb();
    const stored = await db.select().from(leads).where(eq(leads.email, email));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.urgency).toBe("inmediato");
    expect((await historyOf(stored[0]!.id)).map((row) => row.kind)).toEqual(["duplicate"]);
  });

  it("changes nothing but the history when someone sends another person's e-mail with another phone", async () => {
    const email = uniqueEmail("victima");
    const victim = leadForm({
      email,
      name: "Paula Díaz",
      treatment: "evaluacion",
      urgency: "evaluando",
      budget: "consultar",
    });
    await submitLead(victim);
    const [before] = await leadsWith(victim.phone);
    // The attack: the victim's e-mail, the attacker's phone, answers that would raise the lead and rename it.
    const attacker = leadForm({
      email,
      name: "Nombre Falso",
      treatment: "implantes",
      urgency: "inmediato",
      budget: "alto",
      message: "Cambien mis datos",
    });
    const answer = await submitLead(attacker);
    expect(answer.body.ok).toBe(true);
    expect(await leadsWith(attacker.phone)).toHaveLength(0);
    const after = await leadRow(before!.id);
    expect(after).toMatchObject({
      name: "Paula Díaz",
      phone: victim.phone,
      treatment: "evaluacion",
      urgency: "evaluando",
      budget: "consultar",
      score: before!.score,
      level: before!.level,
      resubmittedAt: null,
    });
    expect(after.updatedAt.getTime()).toBe(before!.updatedAt.getTime());
    const history = await historyOf(before!.id);
    expect(history.map((row) => row.kind)).toEqual(["duplicate"]);
    expect(history[0]!.details).toMatchObject({
      phoneMismatch: true,
      phone: attacker.phone,
      name: "Nombre Falso",
      scoreAfter: before!.score,
    });
    const view = await page(asesor, before!.id);
    expect(view.history[0]).toMatchObject({
      kind: "duplicate",
      badge: { label: "Teléfono distinto" },
      body: expect.stringContaining(`Teléfono: ${attacker.phone}`),
    });
  });

  it("prefers the open lead with the same phone over a newer one matched only by e-mail", async () => {
    const email = uniqueEmail("dos");
    const byPhone = leadForm({ urgency: "3-meses" });
    await submitLead(byPhone);
    await submitLead(leadForm({ email, urgency: "3-meses" }));
    await submitLead(leadForm({ phone: byPhone.phone, email, urgency: "inmediato" }));
    const [phoneLead] = await leadsWith(byPhone.phone);
    expect(phoneLead!.urgency).toBe("inmediato");
    expect((await historyOf(phoneLead!.id)).map((row) => row.kind)).toEqual(["duplicate"]);
  });

  it("gives an unassigned open lead to an available asesor when a request is merged into it", async () => {
    const open = await insertLead({ assignedTo: null });
    await submitLead(leadForm({ phone: open.phone }));
    const stored = await leadRow(open.id);
    expect(stored.assignedTo).not.toBeNull();
    const asesores = (await listAsesores(await getDb())).map((row) => row.id);
    expect(asesores).toContain(stored.assignedTo);
    const history = await historyOf(open.id);
    expect(history.map((row) => row.kind).toSorted()).toEqual(["assignment", "duplicate"]);
    expect(history.find((row) => row.kind === "assignment")!.details).toMatchObject({
      from: null,
      to: stored.assignedTo,
    });
  });

  it("merges the same submission once, however often it is sent", async () => {
    const form = leadForm();
    await submitLead(form);
    const repeat = leadForm({ phone: form.phone, urgency: "1-mes" });
    await Promise.all([submitLead(repeat), submitLead(repeat)]);
    await submitLead(repeat);
    const [lead] = await leadsWith(form.phone);
    expect(await historyOf(lead!.id)).toHaveLength(1);
  });

  it("charges merges to the sender's hourly budget: repeats cannot flood a lead's history", async () => {
    const form = leadForm();
    const ip = `2001:db8:${randomUUID().slice(0, 4)}:1::1`;
    const send = async (fields: Record<string, string>) =>
      unwrap<LeadActionResult>(await homeAction(routeArgs(clientForm("/?index", fields, { ip }))));
    expect((await send(form)).status).toBe(200);
    for (let index = 0; index < 9; index += 1) {
      expect((await send(leadForm({ phone: form.phone }))).status).toBe(200);
    }
    const refused = await send(leadForm({ phone: form.phone }));
    expect(refused.status).toBe(429);
    const [lead] = await leadsWith(form.phone);
    expect(await historyOf(lead!.id)).toHaveLength(9);
  });

  it("makes a new lead when the matching lead is closed (converted or lost)", async () => {
    for (const status of ["converted", "lost"] as const) {
      const phone = uniquePhone();
      await insertLead({ phone, status });
      const answer = await submitLead(leadForm({ phone }));
      expect(answer.body.ok).toBe(true);
      const stored = await leadsWith(phone);
      expect(stored.map((row) => row.status).toSorted()).toEqual([status, "new"].toSorted());
    }
  });

  it("files an inbound WhatsApp under the open lead, and makes a new lead when only a closed one has the number", async () => {
    const db = await getDb();
    const inbound = (phone: string, text: string) => {
      const parsed = parseWhatsAppInbound({
        results: [
          {
            from: phone.slice(1),
            to: "56900000000",
            integrationType: "WHATSAPP",
            receivedAt: new Date().toISOString().replace("Z", "+0000"),
            messageId: randomUUID(),
            message: { type: "TEXT", text },
            contact: { name: "Rosa" },
          },
        ],
      });
      if (!parsed) throw new Error("not an inbound body");
      return receiveWhatsAppInbound(parsed, { db });
    };
    const open = await insertLead({ status: "contacted" });
    expect(await inbound(open.phone, "Hola de nuevo")).toMatchObject({ leadsCreated: 0 });
    expect((await historyOf(open.id)).map((row) => row.kind)).toEqual(["whatsapp-inbound"]);

    const closed = await insertLead({ status: "converted" });
    expect(await inbound(closed.phone, "Quiero otra evaluación")).toMatchObject({ leadsCreated: 1 });
    const stored = await leadsWith(closed.phone);
    expect(stored).toHaveLength(2);
    expect(await historyOf(closed.id)).toHaveLength(0);
  });
});

describe("round-robin assignment", () => {
  it("gives 30 new leads to 3 available asesores, 10 each, and none to the one who is away", async () => {
    const db = await getDb();
    // Everyone already on the team steps away for this test; restored afterwards.
    const team = await listAsesores(db);
    const teamIds = team.map((row) => row.id);
    for (const id of teamIds) {
      await db
        .insert(staffAvailability)
        .values({ userId: id, away: true })
        .onConflictDoUpdate({ target: staffAvailability.userId, set: { away: true } });
    }
    try {
      const trio = await Promise.all(
        ["Ana", "Beto", "Cata"].map((firstName) => createTestUser({ roles: ["asesor"], firstName })),
      );
      const away = await createTestUser({ roles: ["asesor"], firstName: "Dani" });
      await post(away, (await insertLead()).id, { intent: "availability", userId: away.id, away: "1" });
      // A deactivated asesor gets nothing either.
      const gone = await createTestUser({ roles: ["asesor"], firstName: "Eli" });
      await db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, gone.id));

      // Ten rounds of three leads arriving at once.
      const phones: string[] = [];
      for (let round = 0; round < 10; round += 1) {
        const forms = [leadForm(), leadForm(), leadForm()];
        phones.push(...forms.map((form) => form.phone));
        const answers = await Promise.all(forms.map((form) => submitLead(form)));
        expect(answers.every((answer) => answer.body.ok)).toBe(true);
      }
      const rows = await db
        .select({ assignedTo: leads.assignedTo })
        .from(leads)
        .where(inArray(leads.phone, phones));
      expect(rows).toHaveLength(30);
      const counts = new Map<string | null, number>();
      for (const row of rows) counts.set(row.assignedTo, (counts.get(row.assignedTo) ?? 0) + 1);
      const perAsesor = trio.map((user) => counts.get(user.id) ?? 0);
      expect(perAsesor).toEqual([10, 10, 10]);
      expect(counts.get(away.id) ?? 0).toBe(0);
      expect(counts.get(gone.id) ?? 0).toBe(0);
      expect(counts.get(null) ?? 0).toBe(0);
    } finally {
      await db
        .update(staffAvailability)
        .set({ away: false })
        .where(inArray(staffAvailability.userId, teamIds));
    }
  });

  it("leaves a new lead unassigned when nobody is available", async () => {
    const db = await getDb();
    const ids = (await listAsesores(db)).map((row) => row.id);
    const setAll = async (away: boolean) => {
      for (const userId of ids) {
        await db
          .insert(staffAvailability)
          .values({ userId, away })
          .onConflictDoUpdate({ target: staffAvailability.userId, set: { away } });
      }
    };
    await setAll(true);
    try {
      const form = leadForm();
      await submitLead(form);
      const [lead] = await leadsWith(form.phone);
      expect(lead!.assignedTo).toBeNull();
    } finally {
      await setAll(false);
    }
  });
});
