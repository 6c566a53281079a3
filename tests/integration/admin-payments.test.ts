import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  auditLog,
  charges,
  paymentRefunds,
  payments,
  treatmentDeposits,
  treatmentsCatalog,
} from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { CSV_BOM } from "~/domain/csv";
import { seedDemoDeposits } from "~/db/seed.server";
import { systemStatus } from "~/features/staff/system-status.server";
import { action, loader } from "~/routes/_admin/payments";
import { loader as csvLoader } from "~/routes/_admin/payments-export";
import { postAs, requestAs } from "../setup/clients";
import { createTestUser, insertChargeRow, insertPaymentRow, type TestUser } from "../setup/factories";
import { routeArgs, unwrap } from "../setup/route-args";
import { settle, thrownResponse } from "../setup/route-results";

afterAll(closeDb);

type PageData = Awaited<ReturnType<typeof loader>>;
type ActionBody = { ok: boolean; message: string; fieldErrors?: Record<string, string[]> };

let admin: TestUser;
let asesor: TestUser;
let patient: TestUser;
/** A name only this file's patient has, so the search filter isolates its rows from other files' fixtures. */
const token = `Pagador${randomUUID().slice(0, 6).replace(/\d/g, "x")}`;

beforeAll(async () => {
  [admin, asesor, patient] = await Promise.all([
    createTestUser({ roles: ["admin"] }),
    createTestUser({ roles: ["asesor"] }),
    createTestUser({ firstName: token }),
  ]);
});

async function page(user: TestUser, query = "") {
  return (await loader(routeArgs(requestAs(user.cookie, `/admin/pagos${query}`)))) as PageData;
}

async function post(user: TestUser, fields: Record<string, string>) {
  return unwrap<ActionBody>(await action(routeArgs(postAs(user.cookie, "/admin/pagos", fields))));
}

async function refundRows(paymentId: string) {
  return (await getDb()).select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));
}

async function paidDeposit(amount = 170_000) {
  const charge = await insertChargeRow({ patientId: patient.id, amount, status: "paid", paidAt: new Date() });
  const payment = await insertPaymentRow({ charge });
  return { charge, payment };
}

describe("/admin/pagos access", () => {
  it("refuses a patient (403) on the page, the CSV and every action; sends a visitor to sign in", async () => {
    const calls = [
      () => loader(routeArgs(requestAs(patient.cookie, "/admin/pagos"))),
      () => csvLoader(routeArgs(requestAs(patient.cookie, "/admin/pagos.csv"))),
      () =>
        action(
          routeArgs(postAs(patient.cookie, "/admin/pagos", { intent: "dentalink", chargeId: randomUUID() })),
        ),
    ];
    for (const call of calls) expect((await thrownResponse(call)).status).toBe(403);
    expect(await thrownResponse(() => loader(routeArgs(requestAs(undefined, "/admin/pagos"))))).toEqual({
      status: 302,
      location: `/auth?redirectTo=${encodeURIComponent("/admin/pagos")}`,
    });
  });

  it("shows an asesor the list read-only, and refuses the asesor's refund (403) without writing anything", async () => {
    const { payment } = await paidDeposit();
    const data = await page(asesor, `?q=${token}`);
    expect(data.canManage).toBe(false);
    expect(data.deposits).toBeNull();
    const row = data.attempts.find((attempt) => attempt.id === payment.id);
    expect(row).toMatchObject({
      statusLabel: "Pagado",
      amountLabel: "$170.000",
      reconciliation: "Retorno del pagador",
      method: "Crédito · ···· 6623",
      buyOrder: payment.buyOrder,
    });
    // DTOs only: no token, session or raw row reaches the page.
    expect(JSON.stringify(data)).not.toContain(payment.token!);

    const refused = await thrownResponse(() =>
      action(
        routeArgs(
          postAs(asesor.cookie, "/admin/pagos", {
            intent: "refund",
            paymentId: payment.id,
            amount: "1000",
            reason: "Pide devolución",
          }),
        ),
      ),
    );
    expect(refused.status).toBe(403);
    expect(await refundRows(payment.id)).toHaveLength(0);
  });
});

describe("refunds", () => {
  it("refuses a refund over the paid amount in Spanish (400) and writes nothing", async () => {
    const { payment } = await paidDeposit(50_000);
    const result = await post(admin, {
      intent: "refund",
      paymentId: payment.id,
      amount: "50.001",
      reason: "Error de cobro",
    });
    expect(result.status).toBe(400);
    expect(result.body.message).toBe(
      "El reembolso no puede superar lo pagado y aún no reembolsado ($50.000).",
    );
    expect(await refundRows(payment.id)).toHaveLength(0);
    const audits = await (
      await getDb()
    )
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, admin.id), eq(auditLog.action, "payment.refund_requested")));
    expect(audits.filter((row) => row.details?.paymentId === payment.id)).toHaveLength(0);
  });

  it("requires a reason of five characters, in Spanish beside the field", async () => {
    const { payment } = await paidDeposit(20_000);
    const result = await post(admin, {
      intent: "refund",
      paymentId: payment.id,
      amount: "1000",
      reason: "no",
    });
    expect(result.status).toBe(400);
    expect(result.body.fieldErrors?.reason?.[0]).toBe(
      "Indica el motivo del reembolso (al menos 5 caracteres).",
    );
    expect(await refundRows(payment.id)).toHaveLength(0);
  });

  it("asks a partial refund as an admin: a pending row, audited, and the page shows what is left", async () => {
    const { payment } = await paidDeposit(40_000);
    const result = await post(admin, {
      intent: "refund",
      paymentId: payment.id,
      amount: "$15.000",
      reason: "Reembolso parcial acordado",
    });
    expect(result.body).toMatchObject({ ok: true, message: "Reembolso de $15.000 solicitado a Webpay." });
    const [refund] = await refundRows(payment.id);
    expect(refund).toMatchObject({ amount: 15_000, status: "pending", requestedBy: admin.id });
    const row = (await page(admin, `?q=${token}`)).attempts.find((attempt) => attempt.id === payment.id);
    expect(row?.refundable).toBe(25_000);
  });
});

describe("late-cancellation fees", () => {
  it("refuses a waiver without a reason and keeps the fee open; waives it with one (audited)", async () => {
    const fee = await insertChargeRow({
      patientId: patient.id,
      kind: "late_cancellation",
      concept: "Cancelación tardía: Implante dental",
      amount: 425_000,
    });
    expect((await page(admin)).fees.map((item) => item.id)).toContain(fee.id);

    const refused = await post(admin, { intent: "waive", chargeId: fee.id, reason: "" });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors?.reason?.[0]).toBe(
      "Indica el motivo de la condonación (al menos 5 caracteres).",
    );
    const db = await getDb();
    expect((await db.select().from(charges).where(eq(charges.id, fee.id)))[0]?.status).toBe("open");

    const asAsesor = await thrownResponse(() =>
      action(
        routeArgs(
          postAs(asesor.cookie, "/admin/pagos", {
            intent: "waive",
            chargeId: fee.id,
            reason: "Urgencia médica",
          }),
        ),
      ),
    );
    expect(asAsesor.status).toBe(403);

    const done = await post(admin, {
      intent: "waive",
      chargeId: fee.id,
      reason: "Urgencia médica documentada",
    });
    expect(done.body).toMatchObject({ ok: true, message: "Cargo condonado." });
    const [waived] = await db.select().from(charges).where(eq(charges.id, fee.id));
    expect(waived).toMatchObject({
      status: "waived",
      waivedBy: admin.id,
      waivedReason: "Urgencia médica documentada",
    });
  });
});

describe("balance payments", () => {
  it("lists a paid balance to record at Dentalink and marks it once", async () => {
    const balance = await insertChargeRow({
      patientId: patient.id,
      kind: "balance",
      concept: "Saldo: presupuesto 1234",
      amount: 60_000,
      status: "paid",
      paidAt: new Date(),
      dentalinkBudgetId: "1234",
    });
    expect((await page(admin)).balances.map((item) => item.id)).toContain(balance.id);
    expect((await post(admin, { intent: "dentalink", chargeId: balance.id })).body.ok).toBe(true);
    expect((await page(admin)).balances.map((item) => item.id)).not.toContain(balance.id);
    const again = await post(admin, { intent: "dentalink", chargeId: balance.id });
    expect(again.status).toBe(409);
  });
});

describe("/admin/pagos.csv", () => {
  it("holds the filtered attempts in the lead export's dialect (BOM, `;`, CRLF, formulas neutralised)", async () => {
    const charge = await insertChargeRow({
      patientId: patient.id,
      kind: "late_cancellation",
      concept: '=HYPERLINK("http://x")',
      amount: 12_345,
    });
    const rejected = await insertPaymentRow({
      charge,
      status: "rejected",
      settledBy: "reconciliation",
      checks: 2,
    });
    const paid = await paidDeposit(99_000);
    // The attempt's own clinic day (its creation, not a second look at the clock, which midnight may have passed).
    const today = clinicDate(rejected.createdAt);
    const response = (await csvLoader(
      routeArgs(
        requestAs(
          asesor.cookie,
          `/admin/pagos.csv?estado=rejected&concepto=late_cancellation&q=${token}&desde=${today}&hasta=${today}`,
        ),
      ),
    )) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="pagos-${today}-a-${today}.csv"`,
    );
    // UTF-8 with its byte-order mark (a Response's text() would drop it).
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Array.from(bytes.subarray(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
    const body = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(body.startsWith(CSV_BOM)).toBe(true);
    const lines = body.slice(1).split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines[0]).toBe(
      "Fecha;Paciente;E-mail;Concepto;Tipo;Monto;Reembolsado;Estado;Método;Orden de compra;Conciliación;Verificaciones;Último error",
    );
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(1);
    const cells = rows[0]!.split(";");
    expect(cells[2]).toBe(patient.email);
    expect(cells[3]).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(cells.slice(4, 8)).toEqual(["Cargo por cancelación tardía", "12345", "0", "Rechazado"]);
    expect(cells[9]).toBe(rejected.buyOrder);
    expect(cells[10]).toBe("Conciliación");
    expect(body).not.toContain(paid.payment.buyOrder);

    // A range that leaves today out holds the header only.
    const yesterday = addDays(today, -1);
    const empty = await settle<string>(() =>
      csvLoader(
        routeArgs(
          requestAs(admin.cookie, `/admin/pagos.csv?q=${token}&desde=${yesterday}&hasta=${yesterday}`),
        ),
      ),
    );
    expect(empty.body.split("\r\n")).toHaveLength(2);
  });
});

async function implant() {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(treatmentsCatalog)
    .where(eq(treatmentsCatalog.slug, "implantes"));
  return row!;
}

describe("deposit rules", () => {
  it("refuses 101 % in Spanish and stores nothing; stores 20 % with its author and an audit row", async () => {
    const treatment = await implant();
    const db = await getDb();
    const refused = await post(admin, {
      intent: "deposit",
      treatmentId: String(treatment.id),
      kind: "percent",
      value: "101",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("El porcentaje del abono debe ser un número entero entre 1 y 100.");
    expect(
      await db.select().from(treatmentDeposits).where(eq(treatmentDeposits.treatmentId, treatment.id)),
    ).toHaveLength(0);

    const asAsesor = await thrownResponse(() =>
      action(
        routeArgs(
          postAs(asesor.cookie, "/admin/pagos", {
            intent: "deposit",
            treatmentId: String(treatment.id),
            kind: "percent",
            value: "20",
          }),
        ),
      ),
    );
    expect(asAsesor.status).toBe(403);

    const stored = await post(admin, {
      intent: "deposit",
      treatmentId: String(treatment.id),
      kind: "percent",
      value: "20",
    });
    expect(stored.body.ok).toBe(true);
    const [rule] = await db
      .select()
      .from(treatmentDeposits)
      .where(eq(treatmentDeposits.treatmentId, treatment.id));
    expect(rule).toMatchObject({ kind: "percent", value: 20, updatedBy: admin.id });
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, admin.id), eq(auditLog.action, "payment.deposit_rule_changed")));
    expect(audits.at(-1)?.details).toMatchObject({
      treatmentId: treatment.id,
      after: { kind: "percent", value: 20 },
    });
    const listed = (await page(admin)).deposits?.find((item) => item.treatmentId === treatment.id);
    expect(listed).toMatchObject({ kind: "percent", value: "20", summary: "20 % del precio: $170.000" });

    // Back to none: an upsert, not a second row.
    await post(admin, { intent: "deposit", treatmentId: String(treatment.id), kind: "none", value: "" });
    const rows = await db
      .select()
      .from(treatmentDeposits)
      .where(eq(treatmentDeposits.treatmentId, treatment.id));
    expect(rows).toMatchObject([{ kind: "none", value: 0 }]);
  });
});

describe("period totals", () => {
  it("sums paid, refunded, net and open charges of the filtered period in CLP", async () => {
    const other = await createTestUser({
      firstName: `Totales${randomUUID().slice(0, 4).replace(/\d/g, "y")}`,
    });
    const paidCharge = await insertChargeRow({ patientId: other.id, amount: 30_000, status: "paid" });
    await insertPaymentRow({ charge: paidCharge, refundedAmount: 5_000, status: "partially_refunded" });
    await insertPaymentRow({ charge: paidCharge, status: "rejected" });
    await insertChargeRow({
      patientId: other.id,
      kind: "late_cancellation",
      amount: 8_000,
      creditedAmount: 3_000,
    });
    const data = await page(admin, `?q=${encodeURIComponent(other.email)}`);
    expect(data.totals).toEqual({ paid: "$30.000", refunded: "$5.000", net: "$25.000", pending: "$5.000" });
    expect(data.attempts).toHaveLength(2);
  });
});

describe("the Overview's Webpay line", () => {
  it("is failing while an attempt stays unsettled for more than 15 minutes", async () => {
    const db = await getDb();
    const now = new Date();
    const webpay = async () =>
      (await systemStatus(db, { now, webpayMode: "live" })).find((line) => line.key === "webpay");
    const charge = await insertChargeRow({ patientId: patient.id, amount: 9_000 });
    const stuck = await insertPaymentRow({
      charge,
      status: "created",
      settledBy: null,
      settledAt: null,
      createdAt: new Date(now.getTime() - 20 * 60_000),
    });
    expect(await webpay()).toMatchObject({ label: "Con fallas", tone: "down" });
    await db.update(payments).set({ status: "expired" }).where(eq(payments.id, stuck.id));
    expect(await webpay()).toMatchObject({ label: "Real", tone: "ok" });
  });
});

describe("demo seed", () => {
  it("gives aesthetic treatments a fixed $30.000 deposit, idempotently, keeping a rule an admin changed", async () => {
    const db = await getDb();
    const [aesthetic] = await db
      .select()
      .from(treatmentsCatalog)
      .where(eq(treatmentsCatalog.slug, "estetica"));
    await db.delete(treatmentDeposits).where(eq(treatmentDeposits.treatmentId, aesthetic!.id));
    await seedDemoDeposits(db);
    await seedDemoDeposits(db);
    expect(
      await db.select().from(treatmentDeposits).where(eq(treatmentDeposits.treatmentId, aesthetic!.id)),
    ).toMatchObject([{ kind: "fixed", value: 30_000 }]);
    await db
      .update(treatmentDeposits)
      .set({ value: 25_000 })
      .where(eq(treatmentDeposits.treatmentId, aesthetic!.id));
    await seedDemoDeposits(db);
    const [kept] = await db
      .select()
      .from(treatmentDeposits)
      .where(eq(treatmentDeposits.treatmentId, aesthetic!.id));
    expect(kept?.value).toBe(25_000);
  });
});
