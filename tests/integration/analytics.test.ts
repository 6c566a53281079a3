import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { analyticsSettings, auditLog, outbox, whatsAppMessages } from "~/db/schema";
import { clinicInstant } from "~/domain/clinic-time";
import { moveLead } from "~/features/crm/lead-pipeline-service.server";
import type { SettingsActionData } from "~/features/analytics/components/analytics-settings-form";
import { loader as csvLoader } from "~/routes/_staff/analytics-csv";
import { action as settingsAction, loader as settingsLoader } from "~/routes/_staff/analytics-settings";
import { loader as funnelLoader } from "~/routes/_staff/funnel";
import { requestAs } from "../setup/clients";
import { thrown, thrownStatus } from "../setup/route-results";
import { routeArgs, unwrap } from "../setup/route-args";
import { createStaffMember, createTestUser, insertLeads, type TestUser } from "../setup/factories";

// ADR 026: the Overview's figures for a period, the Analytics charts and their CSV, the per-user settings and the
// live status list, against hand-counted fixtures.

afterAll(closeDb);

const MINUTE = 60_000;

type FunnelData = Awaited<ReturnType<typeof funnelLoader>>;

async function funnel(cookie: string, path: string): Promise<FunnelData> {
  return funnelLoader(routeArgs(requestAs(cookie, path)));
}

function postSettings(cookie: string | undefined, entries: Array<[string, string]>): Request {
  const body = new URLSearchParams(entries);
  return requestAs(cookie, "/funnel/analytics/ajustes", { method: "POST", body });
}

interface Seed {
  at: [string, string];
  source: string;
  level: "hot" | "warm" | "cold";
  score: number;
  treatment: string;
  status: string;
  firstContactMinutes: number | null;
  /** The furthest stage reached before the current status (a lost lead's), when it is further than the status. */
  furthestStage?: number;
}

// The period 1–10 March 2019 (clinic days; Chile on summer time, UTC-3) and the previous one, 19–28 February: no
// other test of this file creates leads in 2019.
const seeds: Seed[] = [
  // Current period.
  {
    at: ["2019-03-01", "00:00"],
    source: "web",
    level: "hot",
    score: 85,
    treatment: "implantes",
    status: "converted",
    firstContactMinutes: 10,
  },
  {
    at: ["2019-03-02", "12:00"],
    source: "whatsapp",
    level: "warm",
    score: 55,
    treatment: "ortodoncia",
    status: "contacted",
    firstContactMinutes: 30,
  },
  {
    at: ["2019-03-02", "18:00"],
    source: "whatsapp",
    level: "hot",
    score: 90,
    treatment: "implantes",
    status: "qualified",
    firstContactMinutes: 90,
  },
  {
    at: ["2019-03-05", "09:00"],
    source: "social",
    level: "cold",
    score: 25,
    treatment: "evaluacion",
    status: "new",
    firstContactMinutes: null,
  },
  {
    at: ["2019-03-10", "10:00"],
    source: "asistente",
    level: "warm",
    score: 45,
    treatment: "estetica",
    status: "scheduled",
    firstContactMinutes: 5,
  },
  {
    at: ["2019-03-10", "23:59"],
    source: "web",
    level: "cold",
    score: 15,
    treatment: "evaluacion",
    status: "lost",
    firstContactMinutes: 2880,
    // Qualified, then lost: it still counts in 'Contacto' and 'Calificación' (the stages are cumulative).
    furthestStage: 2,
  },
  // Previous period.
  {
    at: ["2019-02-19", "00:00"],
    source: "web",
    level: "hot",
    score: 80,
    treatment: "implantes",
    status: "converted",
    firstContactMinutes: 20,
  },
  {
    at: ["2019-02-25", "10:00"],
    source: "whatsapp",
    level: "cold",
    score: 20,
    treatment: "evaluacion",
    status: "new",
    firstContactMinutes: null,
  },
  // Just outside both.
  {
    at: ["2019-02-18", "23:59"],
    source: "web",
    level: "hot",
    score: 99,
    treatment: "implantes",
    status: "converted",
    firstContactMinutes: 1,
  },
  {
    at: ["2019-03-11", "00:00"],
    source: "web",
    level: "hot",
    score: 99,
    treatment: "implantes",
    status: "converted",
    firstContactMinutes: 1,
  },
];

const PERIOD = "period=custom&from=2019-03-01&to=2019-03-10";

let asesor: TestUser;
let admin: TestUser;
let patient: TestUser;

beforeAll(async () => {
  [asesor, admin, patient] = await Promise.all([
    createStaffMember(["asesor"], { firstName: "Javiera" }),
    createStaffMember(["admin"], { firstName: "Andrés" }),
    createTestUser({ firstName: "Paula" }),
  ]);
  await insertLeads(
    seeds.map((seed, index) => {
      const createdAt = clinicInstant(...seed.at);
      const contactedAt =
        seed.firstContactMinutes === null
          ? null
          : new Date(createdAt.getTime() + seed.firstContactMinutes * MINUTE);
      return {
        name: `Lead ${index}`,
        treatment: seed.treatment,
        urgency: "1-mes",
        budget: "medio",
        score: seed.score,
        level: seed.level,
        reasons: [],
        status: seed.status,
        source: seed.source,
        firstContactAt: contactedAt,
        lastContactAt: contactedAt,
        ...(seed.furthestStage === undefined ? {} : { furthestStage: seed.furthestStage }),
        createdAt,
      };
    }),
  );
});

describe("the Overview for a period", () => {
  it("computes each card, its change against the previous period, the median and the funnel", async () => {
    const data = await funnel(asesor.cookie, `/funnel?${PERIOD}`);
    expect(data.period).toMatchObject({
      kind: "custom",
      from: "2019-03-01",
      to: "2019-03-10",
      days: 10,
      error: null,
    });
    expect(data.stats.map((card) => [card.label, card.value, card.change?.text])).toEqual([
      ["Total Leads", "6", "+200,0% vs. período anterior"],
      ["Leads Calientes", "2", "+100,0% vs. período anterior"],
      ["Conversiones", "1", "Sin cambio vs. período anterior"],
      // 1/6 against 1/2.
      ["Tasa Conversión", "16,7%", "-33,3 pp vs. período anterior"],
      // Median of 5, 10, 30, 90 and 2880 minutes is 30; the previous period's only contacted lead took 20.
      ["Tiempo Respuesta", "30 min", "+50,0% vs. período anterior"],
      ["WhatsApp", "2", "+100,0% vs. período anterior"],
    ]);
    // Cumulative stages: the lost lead (qualified before it was lost) counts in 'Contacto' and 'Calificación'.
    expect(data.stages.map((stage) => [stage.key, stage.count])).toEqual([
      ["captura", 6],
      ["contacto", 5],
      ["calificacion", 4],
      ["conversion", 1],
    ]);
  });

  it("counts leads contacted and then lost in 'Contacto': 10 contacted, 5 marked lost, 'Contacto' shows 10", async () => {
    const db = await getDb();
    const createdAt = clinicInstant("2025-06-03", "10:00");
    const rows = await insertLeads(
      Array.from({ length: 10 }, (_, index) => ({
        name: `Perdido ${index}`,
        urgency: "1-mes",
        budget: "medio",
        score: 50,
        level: "warm",
        reasons: [],
        createdAt,
      })),
    );
    const actor = { id: asesor.id, roles: ["asesor"], ip: "127.0.0.1" };
    for (const [index, row] of rows.entries()) {
      await moveLead(db, { leadId: row.id, from: "new", to: "contacted", actor });
      if (index % 2 === 0) await moveLead(db, { leadId: row.id, from: "contacted", to: "qualified", actor });
      if (index < 5) {
        const from = index % 2 === 0 ? "qualified" : "contacted";
        await moveLead(db, { leadId: row.id, from, to: "lost", reason: "precio", actor });
      }
    }
    const period = "period=custom&from=2025-06-01&to=2025-06-07";
    const overview = await funnel(asesor.cookie, `/funnel?${period}`);
    expect(overview.stages.map((stage) => [stage.key, stage.count])).toEqual([
      ["captura", 10],
      ["contacto", 10],
      ["calificacion", 5],
      ["conversion", 0],
    ]);
    const analytics = await funnel(asesor.cookie, `/funnel?tab=analytics&${period}`);
    const chart = analytics.analytics?.charts.find((item) => item.key === "funnel");
    expect(chart?.rows.map((row) => row.values[0])).toEqual([10, 10, 5, 0]);
  });

  it("counts the previous period on its own, and an empty period as zeros", async () => {
    const previous = await funnel(asesor.cookie, "/funnel?period=custom&from=2019-02-19&to=2019-02-28");
    expect(previous.stats.map((card) => card.value)).toEqual(["2", "1", "1", "50,0%", "20 min", "1"]);
    const empty = await funnel(asesor.cookie, "/funnel?period=custom&from=2025-01-01&to=2025-01-07");
    expect(empty.stats.map((card) => card.value)).toEqual(["0", "0", "0", "0,0%", "—", "0"]);
    expect(empty.stats[0]?.change?.text).toBe("Sin cambio vs. período anterior");
  });

  it("falls back to the default period with a Spanish error for a forged period", async () => {
    const data = await funnel(asesor.cookie, "/funnel?period=custom&from=2019-03-10&to=2019-03-01");
    expect(data.period).toMatchObject({
      kind: "30",
      days: 30,
      error: "La fecha «Desde» debe ser anterior o igual a «Hasta».",
    });
  });
});

describe("the Analytics tab", () => {
  it("builds each chart's series for the period", async () => {
    const data = await funnel(asesor.cookie, `/funnel?tab=analytics&${PERIOD}`);
    expect(data.tab).toBe("analytics");
    const charts = Object.fromEntries((data.analytics?.charts ?? []).map((chart) => [chart.key, chart]));
    expect(Object.keys(charts)).toEqual([
      "by-source",
      "by-level",
      "funnel",
      "response-time",
      "treatment",
      "score",
      "engagement",
    ]);

    const bySource = charts["by-source"]!;
    expect(bySource.series.map((item) => item.key)).toEqual(["web", "asistente", "whatsapp", "social"]);
    expect(bySource.rows).toHaveLength(10);
    expect(
      bySource.rows.filter((row) => row.values.some(Boolean)).map((row) => [row.csvLabel, row.values]),
    ).toEqual([
      ["2019-03-01", [1, 0, 0, 0]],
      ["2019-03-02", [0, 0, 2, 0]],
      ["2019-03-05", [0, 0, 0, 1]],
      // 23:59 clinic time on the 10th is 02:59 UTC on the 11th: still the clinic's 10th.
      ["2019-03-10", [1, 1, 0, 0]],
    ]);
    expect(
      charts["by-level"]!.rows.filter((row) => row.values.some(Boolean)).map((row) => [
        row.csvLabel,
        row.values,
      ]),
    ).toEqual([
      ["2019-03-01", [1, 0, 0]],
      ["2019-03-02", [1, 1, 0]],
      ["2019-03-05", [0, 0, 1]],
      ["2019-03-10", [0, 1, 1]],
    ]);
    expect(charts.funnel!.rows.map((row) => row.values[0])).toEqual([6, 5, 4, 1]);
    expect(charts["response-time"]!.rows.map((row) => row.values[0])).toEqual([2, 1, 1, 0, 1, 0, 1]);
    expect(charts.treatment!.rows.map((row) => [row.key, ...row.values])).toEqual([
      ["implantes", 2, 1],
      ["estetica", 1, 0],
      ["ortodoncia", 1, 0],
      ["evaluacion", 2, 0],
    ]);
    expect(charts.treatment!.extras[0]?.values).toEqual(["50,0%", "0,0%", "0,0%", "0,0%"]);
    expect(charts.score!.rows.map((row) => row.values[0])).toEqual([0, 1, 1, 0, 1, 1, 0, 0, 1, 1]);
  });

  it("downloads each chart as CSV with a BOM, for staff only", async () => {
    const csv = async (chart: string) => {
      const response = (await csvLoader(
        routeArgs(requestAs(asesor.cookie, `/funnel/analytics.csv?chart=${chart}&${PERIOD}`)),
      )) as Response;
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="analytics-${chart}-2019-03-01-a-2019-03-10.csv"`,
      );
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(Array.from(bytes.subarray(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
      return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1).split("\r\n");
    };
    expect(await csv("funnel")).toEqual([
      "Etapa;Leads;% de la captura",
      // A percentage holds a decimal comma: quoted (ADR 034), so a ',' reader keeps it in one cell too.
      'Captura;6;"100,0%"',
      'Contacto;5;"83,3%"',
      'Calificación;4;"66,7%"',
      'Conversión;1;"16,7%"',
      "",
    ]);
    expect((await csv("by-source")).slice(0, 3)).toEqual([
      "Día;Web;Asistente virtual;WhatsApp;Redes sociales",
      "2019-03-01;1;0;0;0",
      "2019-03-02;0;0;2;0",
    ]);
    expect((await csv("by-level"))[0]).toBe("Día;Caliente;Tibio;Frío");
    expect(await csv("response-time")).toEqual([
      "Tiempo hasta el primer contacto;Leads",
      "Menos de 15 min;2",
      "15 a 59 min;1",
      "1 a 4 horas;1",
      "4 a 24 horas;0",
      "1 a 3 días;1",
      "Más de 3 días;0",
      "Sin contactar;1",
      "",
    ]);
    expect((await csv("treatment"))[1]).toBe('Implantes dentales;2;1;"50,0%"');
    expect((await csv("score"))[9]).toBe("80–89;1");

    const refused = (cookie: string | undefined, query = `chart=funnel&${PERIOD}`) =>
      thrown(csvLoader(routeArgs(requestAs(cookie, `/funnel/analytics.csv?${query}`))));
    expect(thrownStatus(await refused(patient.cookie))).toBe(403);
    expect(thrownStatus(await refused(undefined))).toBe(302);
    expect(thrownStatus(await refused(asesor.cookie, `chart=../../etc&${PERIOD}`))).toBe(400);
    expect(
      thrownStatus(await refused(asesor.cookie, "chart=funnel&period=custom&from=2019-03-10&to=2019-03-01")),
    ).toBe(400);
  });
});

describe("'Configurar Analytics'", () => {
  it("saves settings per user: the asesor's do not change the admin's", async () => {
    const result = await settingsAction(
      routeArgs(
        postSettings(asesor.cookie, [
          ["intent", "save"],
          ["via", "dialog"],
          ["defaultPeriod", "7"],
          ["chart", "by-source"],
          ["chart", "funnel"],
          ["chart", "treatment"],
          ["chart", "score"],
          ["chart", "engagement"],
        ]),
      ),
    );
    expect(unwrap<SettingsActionData>(result)).toMatchObject({
      status: 200,
      body: {
        ok: true,
        data: {
          settings: { defaultPeriod: "7", comparison: false, hiddenCharts: ["by-level", "response-time"] },
        },
      },
    });

    const mine = await funnel(asesor.cookie, "/funnel?tab=analytics");
    expect(mine.analytics?.charts.map((chart) => chart.key)).toEqual([
      "by-source",
      "funnel",
      "treatment",
      "score",
      "engagement",
    ]);
    expect(mine.analytics?.period).toMatchObject({ kind: "7", days: 7 });
    // Comparison off: the Overview's cards carry no change.
    const overview = await funnel(asesor.cookie, `/funnel?${PERIOD}`);
    expect(overview.stats.every((card) => card.change === undefined)).toBe(true);

    const theirs = await funnel(admin.cookie, "/funnel?tab=analytics");
    expect(theirs.analytics?.charts).toHaveLength(7);
    expect(theirs.analytics?.period).toMatchObject({ kind: "30" });
    expect(await settingsLoader(routeArgs(requestAs(admin.cookie, "/funnel/analytics/ajustes")))).toEqual({
      settings: { defaultPeriod: "30", comparison: true, hiddenCharts: [] },
    });

    const db = await getDb();
    const audit = await db.select().from(auditLog).where(eq(auditLog.actorId, asesor.id));
    expect(audit.map((row) => row.action)).toContain("analytics.settings_saved");
  });

  it("without JavaScript, a plain post saves and redirects back to the tab; 'Restablecer' returns to the defaults", async () => {
    const saved = await settingsAction(
      routeArgs(
        postSettings(admin.cookie, [
          ["intent", "save"],
          ["defaultPeriod", "90"],
          ["comparison", "on"],
        ]),
      ),
    );
    expect(saved).toBeInstanceOf(Response);
    expect((saved as Response).status).toBe(303);
    expect((saved as Response).headers.get("location")).toBe("/funnel?tab=analytics");
    expect((await funnel(admin.cookie, "/funnel?tab=analytics")).analytics?.charts).toEqual([]);

    const reset = await settingsAction(
      routeArgs(
        postSettings(admin.cookie, [
          ["intent", "reset"],
          ["via", "dialog"],
        ]),
      ),
    );
    expect(unwrap<SettingsActionData>(reset).body).toMatchObject({
      ok: true,
      data: { settings: { defaultPeriod: "30", comparison: true, hiddenCharts: [] } },
    });
    expect((await funnel(admin.cookie, "/funnel?tab=analytics")).analytics?.charts).toHaveLength(7);
    const db = await getDb();
    expect(await db.select().from(analyticsSettings).where(eq(analyticsSettings.userId, admin.id))).toEqual(
      [],
    );
  });

  it("refuses invalid settings with a Spanish error and keeps the stored ones", async () => {
    const result = unwrap<SettingsActionData>(
      await settingsAction(
        routeArgs(
          postSettings(asesor.cookie, [
            ["intent", "save"],
            ["via", "dialog"],
            ["defaultPeriod", "365"],
            ["chart", "<script>alert(1)</script>"],
          ]),
        ),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      ok: false,
      message: "Revisa los ajustes marcados.",
      fieldErrors: {
        defaultPeriod: ["Elige un período predeterminado de 7, 30 o 90 días."],
        hiddenCharts: ["Uno de los gráficos elegidos no existe."],
      },
    });
    expect((await funnel(asesor.cookie, "/funnel?tab=analytics")).analytics?.settings.defaultPeriod).toBe(
      "7",
    );
  });

  it("a stored value that no longer validates reads as the defaults", async () => {
    const db = await getDb();
    await db
      .insert(analyticsSettings)
      .values({ userId: admin.id, settings: { defaultPeriod: "15", hiddenCharts: "all" } })
      .onConflictDoUpdate({
        target: analyticsSettings.userId,
        set: { settings: { defaultPeriod: "15", hiddenCharts: "all" } },
      });
    const data = await funnel(admin.cookie, "/funnel?tab=analytics");
    expect(data.analytics?.settings).toEqual({ defaultPeriod: "30", comparison: true, hiddenCharts: [] });
    await db.delete(analyticsSettings).where(eq(analyticsSettings.userId, admin.id));
  });

  it("a patient or an anonymous visitor can neither read nor write them", async () => {
    const save = [
      ["intent", "save"],
      ["defaultPeriod", "7"],
    ] as Array<[string, string]>;
    expect(thrownStatus(await thrown(settingsAction(routeArgs(postSettings(patient.cookie, save)))))).toBe(
      403,
    );
    expect(thrownStatus(await thrown(settingsAction(routeArgs(postSettings(undefined, save)))))).toBe(302);
    expect(
      thrownStatus(
        await thrown(settingsLoader(routeArgs(requestAs(patient.cookie, "/funnel/analytics/ajustes")))),
      ),
    ).toBe(403);
    expect(thrownStatus(await thrown(funnel(patient.cookie, "/funnel?tab=analytics")))).toBe(403);
    const db = await getDb();
    expect(await db.select().from(analyticsSettings).where(eq(analyticsSettings.userId, patient.id))).toEqual(
      [],
    );
  });
});

const line = (data: FunnelData, key: string) => data.systems.find((system) => system.key === key);

describe("the live system status list", () => {
  beforeAll(async () => {
    // The sign-ups' verification e-mails wait in the outbox (no worker runs in these tests): delivered here.
    const db = await getDb();
    await db.update(outbox).set({ status: "sent" }).where(eq(outbox.status, "pending"));
  });

  it("lists every system, with the scoring self-check passing and an empty outbox", async () => {
    const data = await funnel(asesor.cookie, "/funnel");
    expect(data.systems.map((system) => [system.key, system.tone, system.label])).toEqual([
      ["whatsapp", "demo", "Modo prueba"],
      ["dentalink", "demo", "Modo demostración"],
      ["bot", "ok", "Modo local"],
      ["scoring", "ok", "Activo"],
      ["outbox", "ok", "Al día"],
      // No TRANSBANK_* and no demo mode in these tests: online payment is off (ADR 036).
      ["webpay", "warn", "Apagado"],
    ]);
  });

  it("turns WhatsApp to failing when the latest delivery failed, with the last success time", async () => {
    const db = await getDb();
    const now = Date.now();
    const message = (status: string, minutesAgo: number) => ({
      id: randomUUID(),
      purpose: "test",
      toPhone: "56912345678",
      kind: "text",
      text: "Hola",
      status,
      createdAt: new Date(now - minutesAgo * MINUTE),
      acceptedAt: status === "failed" ? null : new Date(now - minutesAgo * MINUTE),
      failedAt: status === "failed" ? new Date(now - (minutesAgo - 1) * MINUTE) : null,
    });
    await db.insert(whatsAppMessages).values([message("accepted", 30), message("failed", 5)]);
    expect(line(await funnel(asesor.cookie, "/funnel"), "whatsapp")).toMatchObject({
      tone: "down",
      label: "Con fallas",
      detail: "De los últimos envíos, 1 fallaron y 1 fueron aceptados. Último envío aceptado: hace 30 min.",
    });
    // A later success clears it.
    await db.insert(whatsAppMessages).values(message("delivered", 1));
    expect(line(await funnel(asesor.cookie, "/funnel"), "whatsapp")).toMatchObject({ tone: "demo" });
  });

  it("warns when a pending outbox item is older than 15 minutes", async () => {
    const db = await getDb();
    const [fresh] = await db
      .insert(outbox)
      .values({
        kind: "email",
        idempotencyKey: randomUUID(),
        payload: {},
        createdAt: new Date(Date.now() - 2 * MINUTE),
      })
      .returning({ id: outbox.id });
    expect(line(await funnel(asesor.cookie, "/funnel"), "outbox")).toMatchObject({
      tone: "ok",
      label: "En curso",
      detail: "1 envío pendiente; el más antiguo, creado hace 2 min.",
    });
    await db.insert(outbox).values({
      kind: "email",
      idempotencyKey: randomUUID(),
      payload: {},
      createdAt: new Date(Date.now() - 20 * MINUTE),
    });
    expect(line(await funnel(asesor.cookie, "/funnel"), "outbox")).toMatchObject({
      tone: "warn",
      label: "Envíos atrasados",
      detail: "2 envíos pendientes; el más antiguo, creado hace 20 min.",
    });
    await db.update(outbox).set({ status: "sent" }).where(eq(outbox.id, fresh!.id));
  });
});
