import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { leads } from "~/db/schema";
import type { LeadActionResult } from "~/features/leads/lead-schema";
import { action } from "~/routes/_public/home";
import { clientForm, requestAs, uniqueEmail, uniquePhone } from "../setup/clients";
import { leadFormFields } from "../setup/factories";
import { routeArgs, unwrap } from "../setup/route-args";

afterAll(closeDb);

// Fresh phones and e-mails (leadFormFields) keep each test's leads its own.
const validLead = leadFormFields;

// Each submission from a new client address: the hourly per-address budget has its own tests (public-write-limits).
async function submit(fields: Record<string, string>) {
  return unwrap<LeadActionResult>(await action(routeArgs(clientForm("/?index", fields))));
}

async function leadsByPhone(phone: string) {
  const db = await getDb();
  return db.select().from(leads).where(eq(leads.phone, phone));
}

describe("lead capture action", () => {
  it("stores a scored lead and answers with the level's promise", async () => {
    const phone = uniquePhone();
    // Typed the way people do; stored as E.164.
    const email = uniqueEmail("ana");
    const fields = validLead({
      email,
      phone: `${phone.slice(0, 3)} ${phone.slice(3, 4)} ${phone.slice(4, 8)}-${phone.slice(8)}`,
    });
    const { status, body } = await submit(fields);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true });
    if (!body.ok) throw new Error("expected success");
    expect(body.data.promise.title).toContain("15 minutos");

    const stored = await leadsByPhone(phone);
    expect(stored).toHaveLength(1);
    const [lead] = stored;
    expect(lead).toMatchObject({
      name: "Ana Pérez",
      email,
      treatment: "implantes",
      urgency: "inmediato",
      budget: "alto",
      score: 100,
      level: "hot",
      status: "new",
      source: "web",
      submissionId: fields.submissionId,
    });
    expect(lead!.reasons).toEqual([
      "Necesidad inmediata",
      "Presupuesto adecuado",
      "Tratamiento de alto valor",
      "Datos de contacto completos",
      "Consulta detallada",
    ]);
    expect(lead!.createdAt).toBeInstanceOf(Date);
    expect(lead!.consentAt).toBeInstanceOf(Date);
  });

  it("refuses an invalid phone with a Spanish message and stores nothing", async () => {
    const fields = validLead({ phone: "12345", name: `Sin Teléfono ${randomUUID()}` });
    const { status, body } = await submit(fields);
    expect(status).toBe(400);
    expect(body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: expect.stringContaining("teléfono chileno válido"),
      fieldErrors: { phone: [expect.stringContaining("teléfono chileno válido")] },
    });
    const db = await getDb();
    expect(await db.select().from(leads).where(eq(leads.name, fields.name))).toHaveLength(0);
  });

  it("lists every invalid field and requires consent", async () => {
    const { status, body } = await submit({
      name: "",
      phone: "",
      treatment: "x",
      urgency: "",
      budget: "",
      email: "no",
    });
    expect(status).toBe(400);
    if (body.ok) throw new Error("expected errors");
    expect(Object.keys(body.fieldErrors ?? {}).toSorted()).toEqual([
      "budget",
      "consent",
      "email",
      "name",
      "phone",
      "treatment",
      "urgency",
    ]);
    expect(body.fieldErrors?.consent?.[0]).toContain("Política de Privacidad");
  });

  it("creates one lead for a double submit with the same submission id", async () => {
    const fields = validLead();
    const [first, second] = await Promise.all([submit(fields), submit(fields)]);
    expect(first.body.ok && second.body.ok).toBe(true);
    expect(await leadsByPhone(fields.phone)).toHaveLength(1);
  });

  it("creates one lead when a form without JavaScript is sent twice", async () => {
    const fields = validLead({ submissionId: "" });
    await submit(fields);
    await submit(fields);
    expect(await leadsByPhone(fields.phone)).toHaveLength(1);
  });

  it("scores the warm and cold scenarios and promises their follow-up", async () => {
    const warm = await submit(
      validLead({ treatment: "ortodoncia", urgency: "1-mes", budget: "medio", email: "" }),
    );
    const cold = await submit(
      validLead({
        treatment: "evaluacion",
        urgency: "evaluando",
        budget: "consultar",
        email: "",
        message: "Hola",
      }),
    );
    expect(warm.body.ok && warm.body.data.promise.title).toContain("2 a 4 horas");
    expect(cold.body.ok && cold.body.data.promise.title).toContain("24 a 48 horas");
  });

  it("keeps a script tag in the message as plain text", async () => {
    const fields = validLead({ message: '<script>alert("x")</script> quiero información' });
    await submit(fields);
    const [lead] = await leadsByPhone(fields.phone);
    expect(lead!.message).toBe('<script>alert("x")</script> quiero información');
  });

  it("ignores fields it does not know (no score or level from the browser)", async () => {
    const fields = {
      ...validLead({ urgency: "evaluando", budget: "bajo", treatment: "evaluacion", email: "", message: "" }),
      score: "100",
      level: "hot",
      status: "converted",
    };
    await submit(fields);
    const [lead] = await leadsByPhone(fields.phone);
    expect(lead).toMatchObject({ score: 0, level: "cold", status: "new" });
  });

  it("answers 400 to a malformed body", async () => {
    const request = requestAs(undefined, "/?index", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=nope" },
      body: "garbage",
    });
    await expect(action(routeArgs(request))).rejects.toMatchObject({ init: { status: 400 } });
  });
});
