import { describe, expect, it } from "vitest";
import { leadSources } from "~/domain/lead-labels";
import { leadStatuses, stageRanks } from "~/domain/lead-pipeline";
import { treatments } from "~/domain/lead-scoring";
import {
  DEMO_DAYS,
  DEMO_LEAD_COUNT,
  demoPhone,
  demoStaffMarker,
  generateDemoStaffData,
  seededRandom,
} from "./demo-staff-data";

const now = new Date("2026-11-27T15:00:00Z");
const input = {
  now,
  asesorIds: ["asesor-1"],
  staffIds: ["asesor-1", "admin-1"],
  clinic: { name: "Río Clínica", hours: "Lun-Vie 9:00-18:00", whatsAppNumber: "+56987654321" },
};

describe("seededRandom", () => {
  it("repeats its sequence for a seed and differs between seeds", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(Array.from({ length: 5 }, c)).not.toEqual(first);
    expect(first.every((value) => value >= 0 && value < 1)).toBe(true);
  });
});

describe("generateDemoStaffData", () => {
  const data = generateDemoStaffData(input);

  it("is deterministic: the same input gives the same rows; ids do not depend on now", () => {
    expect(generateDemoStaffData(input)).toEqual(data);
    const later = generateDemoStaffData({ ...input, now: new Date(now.getTime() + 3 * 86_400_000) });
    expect(later.leads.map((lead) => lead.id)).toEqual(data.leads.map((lead) => lead.id));
    expect(later.leads[0]!.createdAt.getTime() - data.leads[0]!.createdAt.getTime()).toBe(3 * 86_400_000);
    expect(generateDemoStaffData({ ...input, seed: 1 }).leads[0]!.id).not.toBe(data.leads[0]!.id);
    // The marker a restart looks for is the first lead's submission id.
    expect(demoStaffMarker()).toBe(data.leads[0]!.submissionId);
  });

  it("makes a few hundred leads within the last 90 days, every id unique", () => {
    expect(data.leads).toHaveLength(DEMO_LEAD_COUNT);
    const oldest = now.getTime() - DEMO_DAYS * 86_400_000;
    const outside = data.leads.filter(
      (lead) =>
        lead.createdAt.getTime() < oldest ||
        lead.createdAt.getTime() >= now.getTime() ||
        (lead.firstContactAt !== null &&
          (lead.firstContactAt <= lead.createdAt || lead.firstContactAt.getTime() >= now.getTime())),
    );
    expect(outside).toEqual([]);
    const ids = [...data.leads, ...data.history, ...data.whatsApp, ...data.syncs].map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(data.leads.map((lead) => lead.phone)).size).toBe(DEMO_LEAD_COUNT);
  });

  it("covers every source, treatment, level and pipeline stage, in each of the three last 30-day periods", () => {
    for (const period of [0, 1, 2]) {
      const start = now.getTime() - (period + 1) * 30 * 86_400_000;
      const end = now.getTime() - period * 30 * 86_400_000;
      const inPeriod = data.leads.filter(
        (lead) => lead.createdAt.getTime() >= start && lead.createdAt.getTime() < end,
      );
      expect({ period, enough: inPeriod.length > 40 }).toEqual({ period, enough: true });
      expect(new Set(inPeriod.map((lead) => lead.source))).toEqual(new Set(leadSources));
    }
    expect(new Set(data.leads.map((lead) => lead.treatment))).toEqual(new Set(treatments));
    expect(new Set(data.leads.map((lead) => lead.level))).toEqual(new Set(["hot", "warm", "cold"]));
    expect(new Set(data.leads.map((lead) => lead.status))).toEqual(new Set(leadStatuses));
    // Every status is well represented, not a token row.
    const few = leadStatuses.filter(
      (status) => data.leads.filter((lead) => lead.status === status).length < 15,
    );
    expect(few).toEqual([]);
  });

  it("keeps each lead consistent: stage, lost reason, contact and history", () => {
    const wrong = data.leads.flatMap((lead) => {
      const steps = data.history.filter((row) => row.leadId === lead.id && row.kind === "status");
      const times = steps.map((row) => row.at.getTime());
      const problems = [
        (lead.lostReason !== null) !== (lead.status === "lost") && "lost reason",
        lead.status !== "lost" && lead.furthestStage !== stageRanks[lead.status] && "furthest stage",
        lead.status === "new" && lead.firstContactAt !== null && "contact of a new lead",
        (steps.at(-1)?.details.to ?? "new") !== lead.status && "last history step",
        times.some((time, index) => index > 0 && time < times[index - 1]!) && "history order",
      ].filter(Boolean);
      return problems.length > 0 ? [{ lead: lead.name, problems }] : [];
    });
    expect(wrong).toEqual([]);
  });

  it("has contacts, notes, assignments, WhatsApp messages and Dentalink syncs", () => {
    expect(data.leads.filter((lead) => lead.firstContactAt).length).toBeGreaterThan(150);
    expect(data.leads.filter((lead) => lead.assignedTo === "asesor-1").length).toBeGreaterThan(250);
    expect(data.history.filter((row) => row.kind === "note").length).toBeGreaterThan(60);
    expect(data.whatsApp).toHaveLength(2 * DEMO_LEAD_COUNT);
    expect(new Set(data.whatsApp.map((message) => message.status))).toEqual(
      new Set(["accepted", "delivered", "read", "failed"]),
    );
    expect(data.syncs.length).toBeGreaterThan(30);
    expect(data.syncs.some((sync) => sync.outcome === "failed")).toBe(true);
  });

  it("has a handful of chat conversations, exactly one waiting for a person", () => {
    expect(data.chatRooms.length).toBeGreaterThanOrEqual(4);
    expect(data.chatRooms.filter((room) => room.status === "pending_human")).toHaveLength(1);
    for (const room of data.chatRooms) {
      expect(
        data.chatMessages.some((message) => message.roomId === room.id && message.author === "guest"),
      ).toBe(true);
    }
  });

  it("uses obviously fictitious contact data", () => {
    expect(demoPhone(0)).toBe("+56900000001");
    const real = data.leads.filter(
      (lead) =>
        !/^\+5690000\d{4}$/.test(lead.phone) ||
        (lead.email !== null && !/^[a-z.0-9]+@ejemplo\.cl$/.test(lead.email)),
    );
    expect(real).toEqual([]);
    expect(data.leads.filter((lead) => lead.email !== null).length).toBeGreaterThan(200);
  });
});
