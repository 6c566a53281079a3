import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  chatGuests,
  chatMessages,
  chatRooms,
  dentalinkSyncs,
  leadHistory,
  leads,
  whatsAppMessages,
} from "~/db/schema";
import { loadAnalyticsTab, loadOverview, selectPeriod } from "~/features/analytics/analytics-service.server";
import { listInbox } from "~/features/chat/inbox-service.server";
import { messageLogPage } from "~/features/messaging/whatsapp-log-service.server";
import { DEMO_LEAD_COUNT } from "~/startup/demo-staff-data";
import { seedDemoStaffData } from "~/startup/demo-staff-seed.server";
import { createTestUser, type TestUser } from "../setup/users";

// Issue 24, item 12b: demo mode's staff data. Written once and in bulk: a second start (even days later) adds
// nothing; the staff screens then have real numbers. This file has its database to itself (no other leads). How long
// the seed takes is measured by `npm run bench:boot` (server boot with and without it), not here.

afterAll(closeDb);

let asesor: TestUser;

beforeAll(async () => {
  asesor = await createTestUser({ roles: ["asesor"], email: "asesor@clinica.example", firstName: "Javiera" });
  await createTestUser({ roles: ["admin"], email: "admin@clinica.example", firstName: "Rodrigo" });
});

type Counted =
  | typeof leads
  | typeof leadHistory
  | typeof whatsAppMessages
  | typeof dentalinkSyncs
  | typeof chatGuests
  | typeof chatRooms
  | typeof chatMessages;

async function tally() {
  const db = await getDb();
  const one = async (table: Counted) => (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    leads: await one(leads),
    history: await one(leadHistory),
    whatsApp: await one(whatsAppMessages),
    syncs: await one(dentalinkSyncs),
    guests: await one(chatGuests),
    rooms: await one(chatRooms),
    messages: await one(chatMessages),
  };
}

describe("the demo's staff data", () => {
  it("is written once: seeding again, later, duplicates nothing", async () => {
    const db = await getDb();
    const now = new Date();
    expect(await seedDemoStaffData(db, now)).toEqual({ inserted: true, leads: DEMO_LEAD_COUNT });
    const first = await tally();
    expect(first.leads).toBe(DEMO_LEAD_COUNT);
    expect(first.history).toBeGreaterThan(DEMO_LEAD_COUNT);
    expect(first.whatsApp).toBe(2 * DEMO_LEAD_COUNT);
    expect(first.syncs).toBeGreaterThan(30);
    expect(first.rooms).toBeGreaterThanOrEqual(4);

    expect(await seedDemoStaffData(db, now)).toEqual({ inserted: false, leads: 0 });
    expect(await seedDemoStaffData(db, new Date(now.getTime() + 2 * 86_400_000))).toEqual({
      inserted: false,
      leads: 0,
    });
    expect(await tally()).toEqual(first);
  });

  it("gives the leads to the demo asesor, with history rows that name them", async () => {
    const db = await getDb();
    const mine = await db.select({ n: count() }).from(leads).where(eq(leads.assignedTo, asesor.id));
    expect(mine[0]!.n).toBeGreaterThan(250);
    const notes = await db
      .select({ n: count() })
      .from(leadHistory)
      .where(inArray(leadHistory.kind, ["note"]));
    expect(notes[0]!.n).toBeGreaterThan(60);
  });

  it("makes the Overview, the comparison, every chart, the WhatsApp log and the inbox meaningful", async () => {
    const db = await getDb();
    const selection = await selectPeriod(db, asesor.id, new URLSearchParams("period=30"));
    const { stats, stages } = await loadOverview(db, selection);
    const total = stats.find((card) => card.key === "total")!;
    expect(Number(total.value.replace(/\./g, ""))).toBeGreaterThan(60);
    // The previous 30 days have leads too: the change is a number, not "Sin datos del período anterior".
    expect(total.change?.text).toMatch(/vs\. período anterior$/);
    expect(stats.find((card) => card.key === "response")!.value).not.toBe("—");
    expect(stages.every((stage) => stage.count > 0)).toBe(true);

    const tab = await loadAnalyticsTab(db, selection);
    const leadCharts = tab.charts.filter((chart) => chart.key !== "engagement");
    expect(leadCharts.length).toBeGreaterThanOrEqual(6);
    // Each chart has several categories with leads, not one lonely bar.
    const sparse = leadCharts
      .map((chart) => ({
        chart: chart.key,
        filled: chart.rows.filter((row) => row.values.some((v) => v > 0)).length,
      }))
      .filter((entry) => entry.filled < 3);
    expect(sparse).toEqual([]);

    const log = await messageLogPage(db, new URLSearchParams());
    expect(log.page.rows.length).toBeGreaterThan(10);

    const inbox = await listInbox(db, asesor.id);
    expect(inbox.filter((room) => room.status === "pending_human")).toHaveLength(1);
    expect(inbox.length).toBeGreaterThanOrEqual(4);
  });
});
