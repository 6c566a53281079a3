import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, type Database } from "~/db/client.server";
import { CSV_BOM } from "~/domain/csv";
import { auditLog, outbox, privacyIncidentNotices, privacyIncidents } from "~/db/schema";
import { action as detailAction, loader as detailLoader } from "~/routes/_admin/privacy-incident";
import { loader as csvLoader } from "~/routes/_admin/privacy-incidents-export";
import { action as listAction, loader as listLoader } from "~/routes/_admin/privacy-incidents";
import { clientForm, clientGet, uniqueEmail } from "../setup/clients";
import { createStaffMember, createTestUser, type TestUser } from "../setup/factories";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";

// ADR 038: the breach register at /admin/privacidad/incidentes — admins only; every change audited; the notice to
// the people affected is previewed, confirmed, and queued once per person; the register's CSV for the Agency.

const LIST = "/admin/privacidad/incidentes";

let db: Database;
let admin: TestUser;
let asesor: TestUser;
let patient: TestUser;

const incidentForm = (overrides: Record<string, string> = {}) => ({
  title: "Correo enviado a destinatarios equivocados",
  description: "Un recordatorio con el detalle de citas se envió a 3 personas que no correspondían.",
  occurredAt: "2026-11-20T09:15",
  discoveredAt: "2026-11-20T11:40",
  dataCategories: "nombre, correo, fecha y tratamiento de la cita",
  sensitiveData: "on",
  peopleAffected: "3",
  affectedDescription: "Pacientes con cita el 21 de noviembre",
  measures: "Se pidió a los destinatarios borrar el correo y se corrigió la lista de envío.",
  agencyNotifiedAt: "2026-11-20T15:00",
  peopleNotifiedAt: "",
  ...overrides,
});

async function record(user: TestUser, fields = incidentForm()) {
  return settle(() => listAction(routeArgs(clientForm(LIST, fields, { cookie: user.cookie })) as never));
}

async function post(user: TestUser, id: string, fields: Record<string, string>) {
  return settle(() =>
    detailAction(
      routeArgs(clientForm(`${LIST}/${id}`, fields, { cookie: user.cookie }), { incidentId: id }) as never,
    ),
  );
}

async function newIncident(): Promise<string> {
  const result = await record(admin);
  expect(result.status).toBe(302);
  const id = result.location!.split("/").pop()!.split("?")[0]!;
  return id;
}

async function noticesOf(id: string) {
  return db.select().from(privacyIncidentNotices).where(eq(privacyIncidentNotices.incidentId, id));
}

async function queuedFor(id: string) {
  return db
    .select()
    .from(outbox)
    .where(like(outbox.idempotencyKey, `privacy-incident:${id}:%`));
}

beforeAll(async () => {
  db = await getDb();
  admin = await createStaffMember(["admin"]);
  asesor = await createStaffMember(["asesor"]);
  patient = await createTestUser();
});
afterAll(closeDb);

describe("who may reach the register", () => {
  it("an asesor or a patient recording an incident is refused and nothing is stored", async () => {
    const before = await db.select().from(privacyIncidents);
    for (const intruder of [asesor, patient]) {
      const result = await record(intruder, incidentForm({ title: "Intento de un intruso" }));
      expect(result.status).toBe(403);
    }
    expect(await db.select().from(privacyIncidents)).toHaveLength(before.length);
  });

  it("an asesor or a patient cannot read the list, an incident, or download the register", async () => {
    const id = await newIncident();
    for (const intruder of [asesor, patient]) {
      const list = await settle(() =>
        listLoader(routeArgs(clientGet(LIST, { cookie: intruder.cookie })) as never),
      );
      expect(list.status).toBe(403);
      const page = await settle(() =>
        detailLoader(
          routeArgs(clientGet(`${LIST}/${id}`, { cookie: intruder.cookie }), { incidentId: id }) as never,
        ),
      );
      expect(page.status).toBe(403);
      const csv = await settle(() =>
        csvLoader(routeArgs(clientGet(`${LIST}.csv`, { cookie: intruder.cookie })) as never),
      );
      expect(csv.status).toBe(403);
    }
  });

  it("an asesor cannot send a notice to people of an existing incident", async () => {
    const id = await newIncident();
    const result = await post(asesor, id, {
      intent: "send",
      noticeText: "x".repeat(80),
      recipients: "victima@example.cl",
      confirmed: "on",
    });
    expect(result.status).toBe(403);
    expect(await queuedFor(id)).toEqual([]);
  });
});

describe("recording and editing", () => {
  it("stores the incident with its dates in Santiago time, and audits it", async () => {
    const id = await newIncident();
    const [row] = await db.select().from(privacyIncidents).where(eq(privacyIncidents.id, id));
    expect(row).toMatchObject({
      title: "Correo enviado a destinatarios equivocados",
      sensitiveData: true,
      peopleAffected: 3,
      status: "open",
      createdBy: admin.id,
    });
    // 11:40 in Santiago's summer (UTC−3) is 14:40 UTC.
    expect(row!.discoveredAt.toISOString()).toBe("2026-11-20T14:40:00.000Z");
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "privacy_incident.create"), eq(auditLog.actorId, admin.id)));
    expect(audits.some((entry) => entry.details.incidentId === id)).toBe(true);
  });

  it("refuses a discovery before the occurrence, in Spanish, and stores nothing", async () => {
    const before = (await db.select().from(privacyIncidents)).length;
    const result = await record(
      admin,
      incidentForm({ occurredAt: "2026-11-21T09:00", discoveredAt: "2026-11-20T09:00" }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      ok: false,
      message: "Un incidente no puede descubrirse antes de ocurrir.",
    });
    expect(await db.select().from(privacyIncidents)).toHaveLength(before);
  });

  it("edits while open; once closed it can be neither edited nor used to send notices", async () => {
    const id = await newIncident();
    const saved = await post(admin, id, {
      intent: "save",
      ...incidentForm({ measures: "Se cambió el proveedor." }),
    });
    expect(saved.body).toMatchObject({ ok: true, message: "Cambios guardados." });
    const closed = await post(admin, id, { intent: "close" });
    expect(closed.body).toMatchObject({ ok: true, message: "Incidente cerrado." });
    const edit = await post(admin, id, { intent: "save", ...incidentForm({ title: "Otro título" }) });
    expect(edit.status).toBe(409);
    const send = await post(admin, id, {
      intent: "send",
      noticeText: "x".repeat(80),
      recipients: "tarde@example.cl",
      confirmed: "on",
    });
    expect(send.status).toBe(409);
    const [row] = await db.select().from(privacyIncidents).where(eq(privacyIncidents.id, id));
    expect(row).toMatchObject({ status: "closed", measures: "Se cambió el proveedor." });
    const actions = (await db.select().from(auditLog).where(eq(auditLog.actorId, admin.id)))
      .filter((entry) => entry.details.incidentId === id)
      .map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "privacy_incident.create",
        "privacy_incident.update",
        "privacy_incident.close",
      ]),
    );
  });

  it("answers 404 for an incident that does not exist", async () => {
    const result = await settle(() =>
      detailLoader(
        routeArgs(clientGet(`${LIST}/00000000-0000-4000-8000-000000000000`, { cookie: admin.cookie }), {
          incidentId: "00000000-0000-4000-8000-000000000000",
        }) as never,
      ),
    );
    expect(result.status).toBe(404);
  });
});

describe("the notice to the people affected", () => {
  it("previews without queuing, needs the confirmation, then queues each person once", async () => {
    const id = await newIncident();
    const [ana, beto] = [uniqueEmail("ana"), uniqueEmail("beto")];
    const page = await settle(() =>
      detailLoader(
        routeArgs(clientGet(`${LIST}/${id}`, { cookie: admin.cookie }), { incidentId: id }) as never,
      ),
    );
    const noticeText = (page.body as { noticeText: string }).noticeText;
    expect(noticeText).toContain("Agencia de Protección de Datos Personales");
    expect(noticeText).toContain("nombre, correo, fecha y tratamiento de la cita");

    const recipients = `${ana}\n${beto.toUpperCase()}\nno-es-un-correo\n${ana}`;
    const preview = await post(admin, id, { intent: "preview", noticeText, recipients });
    expect(preview.body).toMatchObject({
      ok: true,
      data: { preview: { recipients: [ana, beto], invalid: ["no-es-un-correo"], alreadyNotified: [] } },
    });
    expect(await queuedFor(id)).toEqual([]);

    const unconfirmed = await post(admin, id, { intent: "send", noticeText, recipients });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body).toMatchObject({
      message: "Confirma que revisaste el texto y los destinatarios.",
    });
    expect(await queuedFor(id)).toEqual([]);

    const sent = await post(admin, id, { intent: "send", noticeText, recipients, confirmed: "on" });
    expect(sent.body).toMatchObject({ ok: true, message: "Aviso en cola de envío para 2 personas." });
    const queued = await queuedFor(id);
    expect(queued.map((row) => row.payload.to).toSorted()).toEqual([ana, beto].toSorted());
    expect(queued[0]!.payload.text).toContain("Agencia de Protección de Datos Personales");
    expect(queued.every((row) => row.kind === "email")).toBe(true);

    // Again with one more person: only the new one is queued; the first two are not told twice.
    const carla = uniqueEmail("carla");
    const again = await post(admin, id, {
      intent: "send",
      noticeText,
      recipients: `${ana}\n${beto}\n${carla}`,
      confirmed: "on",
    });
    expect(again.body).toMatchObject({
      ok: true,
      message: "Aviso en cola de envío para 1 persona. 2 ya habían sido avisadas y no se les envía de nuevo.",
    });
    expect(await queuedFor(id)).toHaveLength(3);
    const notices = await noticesOf(id);
    expect(notices.map((notice) => notice.email).toSorted()).toEqual([ana, beto, carla].toSorted());

    const [row] = await db.select().from(privacyIncidents).where(eq(privacyIncidents.id, id));
    expect(row!.peopleNotifiedAt).toBeInstanceOf(Date);
    expect(row).toMatchObject({ notificationText: noticeText, notificationApprovedBy: admin.id });
  });

  it("two admins sending at once still queue each person once", async () => {
    const id = await newIncident();
    const emails = [uniqueEmail("d"), uniqueEmail("e"), uniqueEmail("f")];
    const fields = {
      intent: "send",
      noticeText: "Aviso de prueba. ".repeat(5),
      recipients: emails.join("\n"),
      confirmed: "on",
    };
    await Promise.all([post(admin, id, fields), post(admin, id, fields)]);
    expect(await queuedFor(id)).toHaveLength(3);
    expect(await noticesOf(id)).toHaveLength(3);
  });

  it("records whose account a notice reached when the address is an account's", async () => {
    const id = await newIncident();
    const result = await post(admin, id, {
      intent: "send",
      noticeText: "Aviso de prueba. ".repeat(5),
      recipients: patient.email.toUpperCase(),
      confirmed: "on",
    });
    expect(result.body).toMatchObject({ ok: true });
    const [notice] = await noticesOf(id);
    expect(notice).toMatchObject({
      userId: patient.id,
      email: patient.email.toLowerCase(),
      channel: "email",
    });
  });
});

describe("the register for the Agency", () => {
  it("downloads as CSV in the product's dialect with every incident, and is audited", async () => {
    const id = await newIncident();
    const response = (await csvLoader(
      routeArgs(clientGet(`${LIST}.csv`, { cookie: admin.cookie })) as never,
    )) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="registro-incidentes-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // UTF-8 with its byte-order mark (a Response's text() would drop it), `;` between cells, CRLF.
    const body = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
      new Uint8Array(await response.arrayBuffer()),
    );
    expect(body.startsWith(`${CSV_BOM}ID;Incidente;Descripción;Ocurrió;Descubierto;`)).toBe(true);
    const line = body.split("\r\n").find((candidate) => candidate.startsWith(id))!;
    expect(line).toContain(";Correo enviado a destinatarios equivocados;");
    expect(line).toContain(`;"20-11-2026, 11:40";`);
    expect(line).toContain(";Sí;3;");
    expect(line).toContain(";Abierto;");
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "privacy_incident.export"));
    expect(audits.length).toBeGreaterThan(0);
  });
});
