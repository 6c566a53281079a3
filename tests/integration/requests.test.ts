import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { RequestReceipt } from "~/features/requests/request-schemas";
import type { ActionResult } from "~/lib/base/action-result";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { callbackRequests, privacyRequests } from "~/db/schema";
import { action as callbackAction } from "~/routes/_public/callback-request";
import { action as dataRightsAction } from "~/routes/_public/data-rights-request";
import { clientForm, uniqueEmail } from "../setup/clients";
import { routeArgs, unwrap } from "../setup/route-args";

afterAll(closeDb);

// clientForm gives each request its own client address: the per-address budget is tested in public-write-limits.
type Result = ActionResult<RequestReceipt>;

describe("/eliminar-datos", () => {
  it("stores a valid request unverified (nothing processed) and gives a reference", async () => {
    const email = uniqueEmail("derechos");
    const fields = {
      submissionId: randomUUID(),
      right: "supresion",
      name: "Pedro Soto",
      email,
      phone: "",
      rut: "12.345.678-5",
      details: "Quiero borrar mis datos de contacto.",
      consent: "on",
    };
    const { status, body } = unwrap<Result>(
      await dataRightsAction(routeArgs(clientForm("/eliminar-datos", fields))),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, data: { step: "sent", via: "email", requestId: null } });
    const db = await getDb();
    const rows = await db.select().from(privacyRequests).where(eq(privacyRequests.email, email));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      right: "supresion",
      status: "unverified",
      channel: "publico",
      // Canonical, as domain/rut.ts gives it: the form accepts it with or without dots.
      rut: "12345678-5",
      phone: null,
      receivedAt: null,
      dueAt: null,
    });
    // A second submit of the same form changes nothing.
    await dataRightsAction(routeArgs(clientForm("/eliminar-datos", fields)));
    expect(await db.select().from(privacyRequests).where(eq(privacyRequests.email, email))).toHaveLength(1);
  });

  it("refuses an unknown right and a bad e-mail in Spanish, storing nothing", async () => {
    const name = `Mala ${randomUUID()}`;
    const { status, body } = unwrap<Result>(
      await dataRightsAction(
        routeArgs(clientForm("/eliminar-datos", { right: "borrar-todo", name, email: "x@", consent: "on" })),
      ),
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: {
        right: ["Elige el derecho que quieres ejercer."],
        email: [expect.stringContaining("e-mail válido")],
      },
    });
    const db = await getDb();
    expect(await db.select().from(privacyRequests).where(eq(privacyRequests.name, name))).toHaveLength(0);
  });
});

describe("/eliminar-datos: the RUT follows the RUT rules (issue 11)", () => {
  it.each([
    ["12.345.678-4", "El RUT ingresado no es válido"],
    ["12.3A5.678-5", "El cuerpo del RUT debe ser numérico"],
    ["1234-5", "El RUT debe tener entre 8 y 9 caracteres"],
    ["12.345.678-X", "El dígito verificador debe ser un número o K"],
  ])("refuses %j with %j and stores nothing", async (rut, message) => {
    const email = uniqueEmail("rut");
    const { status, body } = unwrap<Result>(
      await dataRightsAction(
        routeArgs(
          clientForm("/eliminar-datos", {
            submissionId: randomUUID(),
            right: "acceso",
            name: "Rut Malo",
            email,
            rut,
            consent: "on",
          }),
        ),
      ),
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, code: "VALIDATION", fieldErrors: { rut: [message] } });
    const db = await getDb();
    expect(await db.select().from(privacyRequests).where(eq(privacyRequests.email, email))).toHaveLength(0);
  });
});

describe("/devolver-llamada", () => {
  it("stores the phone as E.164", async () => {
    const name = `Lucía ${randomUUID().slice(0, 8)}`;
    const fields = {
      submissionId: randomUUID(),
      name,
      phone: "(2) 2345 6789",
      email: "",
      preferredTime: "tarde",
      reason: "Consulta por mis datos",
      consent: "on",
    };
    const { body } = unwrap<Result>(await callbackAction(routeArgs(clientForm("/devolver-llamada", fields))));
    expect(body.ok).toBe(true);
    const db = await getDb();
    const [row] = await db.select().from(callbackRequests).where(eq(callbackRequests.name, name));
    expect(row).toMatchObject({ phone: "+56223456789", preferredTime: "tarde", status: "new", email: null });
  });

  it("refuses an invalid phone and a missing consent", async () => {
    const { status, body } = unwrap<Result>(
      await callbackAction(
        routeArgs(clientForm("/devolver-llamada", { name: "Luis", phone: "555", preferredTime: "tarde" })),
      ),
    );
    expect(status).toBe(400);
    expect(body.ok).toBe(false);
    if (body.ok) return;
    expect(body.fieldErrors?.phone?.[0]).toContain("teléfono chileno válido");
    expect(body.fieldErrors?.consent?.[0]).toContain("Política de Privacidad");
  });
});
