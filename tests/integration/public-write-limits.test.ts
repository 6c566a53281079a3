import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import type { RequestReceipt } from "~/features/requests/request-schemas";
import type { ActionResult } from "~/lib/base/action-result";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { callbackRequests, leads, outbox, privacyRequests } from "~/db/schema";
import { formatChileanPhone } from "~/domain/format";
import type { LeadActionResult } from "~/features/leads/lead-schema";
import { clinicFacts } from "~/lib/base/env.server";
import { action as callbackAction } from "~/routes/_public/callback-request";
import { action as dataRightsAction } from "~/routes/_public/data-rights-request";
import { action as leadAction } from "~/routes/_public/home";
import { clientForm, randomIp, uniqueEmail, uniquePhone } from "../setup/clients";
import { leadFormFields } from "../setup/factories";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";

afterAll(closeDb);

/** The documented budget: 10 public submissions of one kind per client address and hour. */
const BUDGET = 10;

type RequestResult = ActionResult<RequestReceipt>;

function lead(overrides: Record<string, string> = {}) {
  return leadFormFields({ email: "", message: `Consulta ${randomUUID()}`, ...overrides });
}

/** The wizard's POST: the same action, its hidden `source`, no message field. */
function wizardLead() {
  const { message: _message, ...fields } = lead({ source: "asistente" });
  return fields;
}

function callback() {
  return {
    submissionId: randomUUID(),
    name: `Lucía ${randomUUID().slice(0, 8)}`,
    phone: uniquePhone(),
    email: "",
    preferredTime: "tarde",
    reason: "",
    consent: "on",
  };
}

function dataRights() {
  return {
    submissionId: randomUUID(),
    right: "supresion",
    name: "Pedro Soto",
    email: uniqueEmail("derechos"),
    phone: "",
    rut: "",
    details: "",
    consent: "on",
  };
}

const postLead = (fields: Record<string, string>, ip: string) =>
  settle<LeadActionResult>(() => leadAction(routeArgs(clientForm("/?index", fields, { ip }))));
const postCallback = (fields: Record<string, string>, ip: string) =>
  settle<RequestResult>(() => callbackAction(routeArgs(clientForm("/devolver-llamada", fields, { ip }))));
const postDataRights = (fields: Record<string, string>, ip: string) =>
  settle<RequestResult>(() => dataRightsAction(routeArgs(clientForm("/eliminar-datos", fields, { ip }))));

async function leadsWithPhones(phones: string[]) {
  const db = await getDb();
  return db.select({ phone: leads.phone }).from(leads).where(inArray(leads.phone, phones));
}

/** Outbox rows (notifications of any kind) that carry `text`, e.g. a refused submission's phone or e-mail. */
async function outboxMentioning(text: string) {
  const db = await getDb();
  return db
    .select({ id: outbox.id })
    .from(outbox)
    .where(sql`${outbox.payload}::text like ${`%${text}%`}`);
}

/** What a refused form must say: the reason, when to retry, and the clinic's phone as shown everywhere else. */
function expectRefusal(result: { status: number; headers: Headers; body: unknown }) {
  expect(result.status).toBe(429);
  expect(result.body).toEqual({
    ok: false,
    code: "RATE_LIMITED",
    message: expect.stringContaining("Recibimos demasiadas solicitudes desde tu conexión"),
  });
  const message = (result.body as { message: string }).message;
  expect(message).toContain(formatChileanPhone(clinicFacts().phone));
  expect(message).toMatch(/Intenta nuevamente en (una hora|\d+ minutos?)/);
  const retryAfter = Number(result.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
}

/** Sends `count` distinct submissions from `ip` and expects each to be accepted. */
async function spend(count: number, send: () => Promise<{ status: number }>) {
  for (let index = 0; index < count; index += 1) expect((await send()).status).toBe(200);
}

describe("lead form: 10 per client address and hour", () => {
  it("refuses the 11th lead from one address with 429 and a Spanish message, storing nothing", async () => {
    const ip = randomIp();
    const accepted: string[] = [];
    await spend(BUDGET, async () => {
      const fields = lead();
      accepted.push(fields.phone);
      return postLead(fields, ip);
    });
    expect(await leadsWithPhones(accepted)).toHaveLength(BUDGET);

    const refused = lead();
    expectRefusal(await postLead(refused, ip));
    expect(await leadsWithPhones([refused.phone])).toEqual([]);
    expect(await outboxMentioning(refused.phone)).toEqual([]);

    // Another client is not affected.
    const other = lead();
    expect((await postLead(other, randomIp())).status).toBe(200);
    expect(await leadsWithPhones([other.phone])).toHaveLength(1);
  });

  it("counts every address of one IPv6 /64 as one client", async () => {
    const prefix = randomIp().split("::")[0]!.split(":").slice(0, 4).join(":");
    await spend(BUDGET, () => postLead(lead(), `${prefix}::${randomUUID().slice(0, 4)}`));
    const refused = lead();
    expectRefusal(await postLead(refused, `${prefix}:abcd:ef01:2345:6789`));
    expect(await leadsWithPhones([refused.phone])).toEqual([]);
  });

  it("does not charge a double submit (same submission id, or the same form sent twice without JavaScript)", async () => {
    const ip = randomIp();
    await spend(BUDGET - 2, () => postLead(lead(), ip));

    const twice = lead();
    expect((await postLead(twice, ip)).status).toBe(200);
    const [again, concurrent] = await Promise.all([postLead(twice, ip), postLead(twice, ip)]);
    expect([again.status, concurrent.status]).toEqual([200, 200]);
    expect(again.body).toMatchObject({ ok: true });

    const withoutScript = lead({ submissionId: "" });
    expect((await postLead(withoutScript, ip)).status).toBe(200);
    expect((await postLead(withoutScript, ip)).status).toBe(200);
    expect(await leadsWithPhones([twice.phone, withoutScript.phone])).toHaveLength(2);

    // Ten stored leads: the budget is spent now, whatever the duplicates above did.
    const eleventh = lead();
    expectRefusal(await postLead(eleventh, ip));
    expect(await leadsWithPhones([eleventh.phone])).toEqual([]);
    // A retry of a lead already stored still gets its confirmation.
    expect((await postLead(twice, ip)).body).toMatchObject({ ok: true });
  });

  it("refuses the helper wizard's 11th lead too, and the wizard and the landing form share one budget", async () => {
    const ip = randomIp();
    await spend(BUDGET, () => postLead(wizardLead(), ip));
    const refused = wizardLead();
    expectRefusal(await postLead(refused, ip));
    const landing = lead();
    expectRefusal(await postLead(landing, ip));
    expect(await leadsWithPhones([refused.phone, landing.phone])).toEqual([]);

    const elsewhere = wizardLead();
    expect((await postLead(elsewhere, randomIp())).body).toMatchObject({ ok: true });
  });

  it("does not charge an invalid form, only stored ones", async () => {
    const ip = randomIp();
    await spend(BUDGET, async () => {
      const result = await postLead(lead({ phone: "12345" }), ip);
      expect(result.status).toBe(400);
      return { status: 200 };
    });
    await spend(BUDGET, () => postLead(lead(), ip));
    expectRefusal(await postLead(lead(), ip));
  });
});

describe("/devolver-llamada and /eliminar-datos: 10 per client address and hour each", () => {
  it("refuses the 11th callback request from one address and stores nothing", async () => {
    const ip = randomIp();
    await spend(BUDGET, () => postCallback(callback(), ip));
    const refused = callback();
    expectRefusal(await postCallback(refused, ip));
    const db = await getDb();
    expect(await db.select().from(callbackRequests).where(eq(callbackRequests.name, refused.name))).toEqual(
      [],
    );
    expect(await outboxMentioning(refused.phone)).toEqual([]);

    const other = callback();
    expect((await postCallback(other, randomIp())).body).toMatchObject({ ok: true });
  });

  it("refuses the 11th data-rights request from one address and stores nothing", async () => {
    const ip = randomIp();
    await spend(BUDGET, () => postDataRights(dataRights(), ip));
    const refused = dataRights();
    expectRefusal(await postDataRights(refused, ip));
    const db = await getDb();
    expect(await db.select().from(privacyRequests).where(eq(privacyRequests.email, refused.email))).toEqual(
      [],
    );
    expect(await outboxMentioning(refused.email)).toEqual([]);

    const other = dataRights();
    expect((await postDataRights(other, randomIp())).body).toMatchObject({ ok: true });
  });

  it("keeps one budget per kind of form: a flood of leads does not block a data-rights request", async () => {
    const ip = randomIp();
    await spend(BUDGET, () => postLead(lead(), ip));
    expectRefusal(await postLead(lead(), ip));
    expect((await postCallback(callback(), ip)).body).toMatchObject({ ok: true });
    expect((await postDataRights(dataRights(), ip)).body).toMatchObject({ ok: true });
  });

  it("does not charge a resubmitted request (same submission id)", async () => {
    const ip = randomIp();
    const resent = dataRights();
    await spend(5, () => postDataRights(resent, ip));
    const db = await getDb();
    expect(
      await db.select().from(privacyRequests).where(eq(privacyRequests.email, resent.email)),
    ).toHaveLength(1);
    await spend(BUDGET - 1, () => postDataRights(dataRights(), ip));
    expectRefusal(await postDataRights(dataRights(), ip));
  });
});
