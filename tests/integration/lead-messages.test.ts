import { asc, eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { leads, outbox, whatsAppMessages } from "~/db/schema";
import type { LeadActionResult } from "~/features/leads/lead-schema";
import { deliverDue } from "~/features/outbox/outbox.server";
import { outboxHandlers } from "~/jobs/outbox-worker.server";
import { action } from "~/routes/_public/home";
import { clientForm } from "../setup/clients";
import { leadFormFields } from "../setup/factories";
import { routeArgs, unwrap } from "../setup/route-args";

// A new lead queues, in the transaction that stores it, first the advisor's notice to the clinic's WhatsApp
// number, then the patient's confirmation with the level's follow-up promise (followUpPromise in domain/lead-scoring.ts).

afterAll(closeDb);

const CLINIC_NUMBER = "56987654321";
const HOURS = "(horario de atención: Lun-Vie 9:00-18:00). Río Clínica.";

const hotLead = leadFormFields;

async function submit(fields: Record<string, string>) {
  const { status, body } = await unwrap<LeadActionResult>(
    await action(routeArgs(clientForm("/?index", fields))),
  );
  expect(status).toBe(200);
  expect(body).toMatchObject({ ok: true });
}

async function leadOf(phone: string) {
  const db = await getDb();
  const [lead] = await db.select().from(leads).where(eq(leads.phone, phone));
  if (!lead) throw new Error("no lead");
  return lead;
}

/**
 * The lead's messages, advisor notice then patient confirmation (sorted by purpose: both rows share the
 * transaction's created_at, and physical order is not stable once another test's worker updates rows).
 */
async function messagesOf(leadId: string) {
  const db = await getDb();
  return db
    .select()
    .from(whatsAppMessages)
    .where(eq(whatsAppMessages.leadId, leadId))
    .orderBy(asc(whatsAppMessages.purpose));
}

const digits = (phone: string) => phone.replace(/\D/g, "");

describe("WhatsApp messages of a new lead", () => {
  it("queues the advisor's notice, then the patient's confirmation, with the lead", async () => {
    const fields = hotLead();
    await submit(fields);
    const lead = await leadOf(fields.phone);
    const messages = await messagesOf(lead.id);

    expect(messages.map((m) => [m.purpose, m.toPhone, m.kind, m.status, m.leadId])).toEqual([
      ["lead-advisor", CLINIC_NUMBER, "text", "queued", lead.id],
      ["lead-patient", digits(fields.phone), "text", "queued", lead.id],
    ]);
    const local = fields.phone.slice(4);
    expect(messages[0]!.text).toBe(
      [
        "Nuevo lead (Web).",
        "Nombre: Ana Pérez.",
        `Teléfono: +56 9 ${local.slice(0, 4)} ${local.slice(4)}.`,
        "Tratamiento: Implantes dentales.",
        "Nivel: Caliente (100 puntos).",
      ].join("\n"),
    );
    expect(messages[1]!.text).toBe(
      `Hola Ana, recibimos tu consulta sobre Implantes dentales. Un asesor te llamará en los próximos 15 minutos: tu caso es prioritario y te contactaremos de inmediato ${HOURS}`,
    );
  });

  it("promises 2 to 4 hours to a warm lead and 24 to 48 hours to a cold one; the assistant is named", async () => {
    const warm = hotLead({
      name: "Berta Soto",
      email: "",
      treatment: "ortodoncia",
      urgency: "1-mes",
      budget: "medio",
      message: "Quiero frenos.",
      source: "asistente",
    });
    const cold = hotLead({
      name: "Carla Díaz",
      email: "",
      treatment: "evaluacion",
      urgency: "evaluando",
      budget: "bajo",
      message: "",
    });
    await submit(warm);
    await submit(cold);

    const [warmAdvisor, warmPatient] = await messagesOf((await leadOf(warm.phone)).id);
    expect(warmAdvisor!.text).toContain("Nuevo lead (Asistente virtual).");
    expect(warmAdvisor!.text).toContain("Tratamiento: Ortodoncia.\nNivel: Tibio (45 puntos).");
    expect(warmPatient!.text).toBe(
      `Hola Berta, recibimos tu consulta sobre Ortodoncia. Un asesor te contactará dentro de 2 a 4 horas ${HOURS}`,
    );

    const [coldAdvisor, coldPatient] = await messagesOf((await leadOf(cold.phone)).id);
    expect(coldAdvisor!.text).toContain("Nivel: Frío (0 puntos).");
    expect(coldPatient!.text).toBe(
      `Hola Carla, recibimos tu consulta sobre Evaluación general. Un asesor te contactará dentro de 24 a 48 horas ${HOURS}`,
    );
  });

  it("queues nothing more when the same submission comes again", async () => {
    const fields = hotLead();
    await submit(fields);
    const lead = await leadOf(fields.phone);
    const db = await getDb();
    const ofLead = like(outbox.idempotencyKey, `lead:${lead.id}:%`);
    expect(await db.$count(outbox, ofLead)).toBe(2);

    await submit(fields);
    expect(await messagesOf(lead.id)).toHaveLength(2);
    expect(await db.$count(outbox, ofLead)).toBe(2);
  });

  it("delivers both in test mode", async () => {
    const fields = hotLead();
    await submit(fields);
    const lead = await leadOf(fields.phone);
    const db = await getDb();
    while ((await deliverDue(db, outboxHandlers())) > 0) {
      // until nothing is due
    }
    const messages = await messagesOf(lead.id);
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      expect(message).toMatchObject({ status: "accepted", testMode: true });
      expect(message.acceptedAt).toBeInstanceOf(Date);
    }
  });
});
