import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { whatsAppMessages } from "~/db/schema";
import type { MessageLogPage } from "~/features/messaging/whatsapp-log-dto";
import { PHONE_FILTER_ERROR } from "~/features/messaging/message-log-schema";
import { enqueueWhatsApp } from "~/features/messaging/whatsapp-outbox.server";
import { loader } from "~/routes/_staff/messages";
import { requestAs, uniquePhone } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createStaffMember, createTestUser, type TestUser } from "../setup/factories";

// /funnel/mensajes: the WhatsApp messages the clinic sent, newest first, 50 per page, filtered by status,
// purpose and phone; asesor and admin only.

afterAll(closeDb);

let asesor: TestUser;
let admin: TestUser;

beforeAll(async () => {
  [asesor, admin] = await Promise.all([createStaffMember(["asesor"]), createStaffMember(["admin"])]);
});

async function open(query: string, user: TestUser = asesor) {
  return settle<MessageLogPage>(() => loader(routeArgs(requestAs(user.cookie, `/funnel/mensajes${query}`))));
}

/** Queues messages to `to`, one transaction each (so each has its own created_at), oldest first. */
async function queue(
  to: string,
  items: Array<{ purpose: "lead-patient" | "reminder" | "test"; text?: string; testMode?: boolean }>,
) {
  const db = await getDb();
  const ids: string[] = [];
  for (const item of items) {
    const id = await db.transaction((tx) =>
      enqueueWhatsApp(
        tx,
        item.purpose === "reminder"
          ? {
              purpose: item.purpose,
              to,
              template: { name: "recordatorio_cita", placeholders: ["Ana", "martes 3 de marzo, 10:00"] },
            }
          : { purpose: item.purpose, to, text: item.text ?? "Hola", testMode: item.testMode },
      ),
    );
    ids.push(id!);
  }
  return ids;
}

const byPhone = (phone: string) => `?telefono=${encodeURIComponent(phone)}`;

describe("access", () => {
  it("shows the page to an asesor and an admin", async () => {
    for (const user of [asesor, admin]) {
      const page = await open("", user);
      expect(page.status).toBe(200);
      expect(page.body.error).toBeNull();
    }
  });

  it("the attack: a patient or a dentist asking for the page gets 403, a visitor the sign-in page", async () => {
    const patient = await createTestUser();
    const dentist = await createTestUser({ roles: ["dentista"] });
    for (const user of [patient, dentist]) {
      expect(await open("", user)).toMatchObject({ status: 403, thrown: true });
    }
    const anonymous = await settle(() => loader(routeArgs(requestAs(undefined, "/funnel/mensajes"))));
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/auth?redirectTo=${encodeURIComponent("/funnel/mensajes")}`);
  });
});

describe("the list", () => {
  it("shows each message newest first: purpose, formatted phone, text or template, test flag, status", async () => {
    const phone = uniquePhone();
    const [text, reminder, test] = await queue(phone, [
      { purpose: "lead-patient", text: "Hola Ana, recibimos tu consulta." },
      { purpose: "reminder" },
      { purpose: "test", text: "Prueba", testMode: true },
    ]);
    const db = await getDb();
    await db
      .update(whatsAppMessages)
      .set({ status: "failed", error: "UNDELIVERABLE_NOT_DELIVERED: EC_UNKNOWN_SUBSCRIBER" })
      .where(eq(whatsAppMessages.id, reminder!));

    const { status, body } = await open(byPhone(phone));
    expect(status).toBe(200);
    const local = phone.slice(4);
    const shown = `+56 9 ${local.slice(0, 4)} ${local.slice(4)}`;
    expect(body.rows.map((row) => row.id)).toEqual([test, reminder, text]);
    expect(body.rows[0]).toMatchObject({
      purposeLabel: "Prueba (Dashboard de Pruebas)",
      recipient: shown,
      kind: "text",
      content: "Prueba",
      testMode: true,
      statusLabel: "En cola",
      tone: "neutral",
    });
    expect(body.rows[1]).toMatchObject({
      purposeLabel: "Recordatorio de cita",
      kind: "template",
      content: "recordatorio_cita",
      placeholders: ["Ana", "martes 3 de marzo, 10:00"],
      statusLabel: "Fallido",
      tone: "bad",
      error: "UNDELIVERABLE_NOT_DELIVERED: EC_UNKNOWN_SUBSCRIBER",
    });
    expect(body.rows[2]).toMatchObject({
      purposeLabel: "Nuevo lead: confirmación al paciente",
      content: "Hola Ana, recibimos tu consulta.",
      testMode: false,
    });
    expect(body.rows[2]!.created.label).toMatch(/^\d{2}-\d{2}-\d{4}, \d{2}:\d{2}:\d{2}$/);
  });

  it("pages 50 at a time, newest first, without gaps or repeats", async () => {
    const phone = uniquePhone();
    const db = await getDb();
    // One transaction: 55 rows with the same created_at, so only the id orders them (the keyset's tie-break).
    const ids = await db.transaction(async (tx) => {
      const made: string[] = [];
      for (let index = 0; index < 55; index++) {
        made.push((await enqueueWhatsApp(tx, { purpose: "lead-patient", to: phone, text: `n${index}` }))!);
      }
      return made;
    });
    const first = await open(byPhone(phone));
    expect(first.body.rows).toHaveLength(50);
    expect(first.body.next).toBe(first.body.rows[49]!.id);
    expect(first.body.paged).toBe(false);
    const second = await open(`${byPhone(phone)}&desde=${first.body.next}`);
    expect(second.body.rows).toHaveLength(5);
    expect(second.body.next).toBeNull();
    expect(second.body.paged).toBe(true);
    const seen = [...first.body.rows, ...second.body.rows].map((row) => row.id);
    expect(new Set(seen).size).toBe(55);
    expect(seen.toSorted()).toEqual(ids.toSorted());
    // Ties on created_at are ordered by id, descending.
    expect(seen).toEqual(ids.toSorted().toReversed());
  });
});

describe("filters", () => {
  it("filters by status, purpose and phone typed any common way", async () => {
    const phone = uniquePhone();
    const [lead, test] = await queue(phone, [
      { purpose: "lead-patient", text: "uno" },
      { purpose: "test", text: "dos", testMode: true },
    ]);
    const db = await getDb();
    await db.update(whatsAppMessages).set({ status: "delivered" }).where(eq(whatsAppMessages.id, lead!));

    const digits = phone.slice(1);
    const spaced = `+56 (9) ${phone.slice(4, 8)}-${phone.slice(8)}`;
    for (const typed of [phone, digits, spaced, phone.slice(3)]) {
      const page = await open(byPhone(typed));
      expect(page.body.rows.map((row) => row.id)).toEqual([test, lead]);
    }
    const delivered = await open(`${byPhone(phone)}&estado=delivered`);
    expect(delivered.body.rows.map((row) => row.id)).toEqual([lead]);
    const tests = await open(`${byPhone(phone)}&proposito=test`);
    expect(tests.body.rows.map((row) => row.id)).toEqual([test]);
    const none = await open(`${byPhone(phone)}&estado=failed`);
    expect(none.body.rows).toEqual([]);

    // Without a phone, the purpose filter alone lists only that purpose.
    const allTests = await open("?proposito=test");
    expect(allTests.body.rows.length).toBeGreaterThan(0);
    expect(allTests.body.rows.every((row) => row.purpose === "test")).toBe(true);
  });

  it("answers a Spanish error, not a crash, for values that are not valid", async () => {
    const cases: Array<[string, string]> = [
      ["?estado=enviado", "Estado desconocido: elige un estado de la lista."],
      ["?proposito=%3Cscript%3E", "Propósito desconocido: elige un propósito de la lista."],
      ["?telefono=abc", PHONE_FILTER_ERROR],
      [`?telefono=${"9".repeat(40)}`, PHONE_FILTER_ERROR],
      ["?desde=1%27%20or%201%3D1", "La página pedida no es válida; vuelve a los mensajes más recientes."],
    ];
    for (const [query, message] of cases) {
      const page = await open(query);
      expect({ query, status: page.status, error: page.body.error }).toEqual({
        query,
        status: 400,
        error: message,
      });
      expect(page.body.rows).toEqual([]);
    }
    // The typed values come back to the form as text.
    const page = await open("?estado=enviado&telefono=abc");
    expect(page.body.filters).toMatchObject({ estado: "enviado", telefono: "abc" });
  });

  it("an unknown cursor ends the list instead of failing", async () => {
    const page = await open("?desde=00000000-0000-4000-8000-000000000000");
    expect(page.status).toBe(200);
    expect(page.body.rows).toEqual([]);
  });
});

describe("speed", () => {
  it("filters by phone through an index", async () => {
    const db = await getDb();
    await db.execute(sql`set enable_seqscan = off`);
    try {
      const plan = await db.execute(
        sql`explain select id from whatsapp_messages where to_phone = '56911111111' order by created_at desc, id desc limit 51`,
      );
      const text = JSON.stringify(plan);
      expect(text).toMatch(/whatsapp_messages_to_phone_created_at_idx/);
    } finally {
      await db.execute(sql`set enable_seqscan = on`);
    }
  });
});
