import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { leadHistory, leads } from "~/db/schema";
import { demoLeadSubmissionIds, seedDemoData } from "~/db/seed.server";
import { assignSeededLeads } from "~/features/crm/lead-assignment-service.server";
import { createTestUser } from "../setup/users";

// Demo mode: the seeded leads exist before the demo accounts, so at start they go round-robin to the asesores.

afterAll(closeDb);

beforeAll(async () => {
  await Promise.all([
    createTestUser({ roles: ["asesor"], firstName: "Demo Uno" }),
    createTestUser({ roles: ["asesor"], firstName: "Demo Dos" }),
  ]);
  await seedDemoData(await getDb());
});

async function demoLeads() {
  const db = await getDb();
  return db
    .select({ id: leads.id, assignedTo: leads.assignedTo })
    .from(leads)
    .where(inArray(leads.submissionId, demoLeadSubmissionIds));
}

describe("demo leads at start", () => {
  it("are each given to an asesor with an 'assignment' history row, and a second start changes nothing", async () => {
    const before = await demoLeads();
    expect(before.length).toBe(demoLeadSubmissionIds.length);
    // As seeded: nobody has assigned them yet (this file has its database to itself).
    const db = await getDb();
    await assignSeededLeads(db, demoLeadSubmissionIds);
    const assigned = await demoLeads();
    expect(assigned.every((lead) => lead.assignedTo !== null)).toBe(true);
    // Round-robin: more than one asesor got some.
    expect(new Set(assigned.map((lead) => lead.assignedTo)).size).toBeGreaterThan(1);
    const history = await db
      .select({ leadId: leadHistory.leadId, details: leadHistory.details })
      .from(leadHistory)
      .where(eq(leadHistory.kind, "assignment"));
    const demoIds = new Set(assigned.map((lead) => lead.id));
    const rows = history.filter((row) => demoIds.has(row.leadId));
    expect(rows).toHaveLength(assigned.length);
    expect(rows.every((row) => (row.details as { reason?: string }).reason === "demo")).toBe(true);

    await assignSeededLeads(db, demoLeadSubmissionIds);
    expect(await demoLeads()).toEqual(assigned);
    const after = await db
      .select({ id: leadHistory.id })
      .from(leadHistory)
      .where(eq(leadHistory.kind, "assignment"));
    expect(after.length).toBe(history.length);
  });
});
