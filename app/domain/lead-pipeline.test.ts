import { describe, expect, it } from "vitest";
import {
  allowedTransitions,
  canTransition,
  checkTransition,
  contactOutcome,
  leadStatuses,
  lostReasonLabels,
  lostReasons,
  stampsContact,
  furthestStageAfter,
  FUNNEL_STAGE,
  type LeadStatus,
} from "./lead-pipeline";

// Every allowed move, written out by hand: any pair not listed here must be refused.
const allowed: Record<LeadStatus, LeadStatus[]> = {
  new: ["contacted", "qualified", "scheduled", "lost"],
  contacted: ["qualified", "scheduled", "lost"],
  qualified: ["scheduled", "lost"],
  scheduled: ["converted", "lost"],
  converted: [],
  lost: ["contacted"],
};

const pairs = leadStatuses.flatMap((from) => leadStatuses.map((to) => [from, to] as const));

describe("lead pipeline transitions", () => {
  it.each(pairs)("%s → %s", (from, to) => {
    const expected = allowed[from].includes(to);
    expect(canTransition(from, to)).toBe(expected);
    const check = checkTransition(from, to, to === "lost" ? "precio" : null);
    expect(check.ok).toBe(expected);
    expect("error" in check ? check.error : "").toMatch(expected ? /^$/ : /no puede pasar a/);
  });

  it("lists the allowed moves in button order", () => {
    for (const from of leadStatuses) expect(allowedTransitions(from)).toEqual(allowed[from]);
  });

  it("never leaves converted and never stays put", () => {
    for (const to of leadStatuses) {
      expect(canTransition("converted", to)).toBe(false);
      expect(canTransition(to, to)).toBe(false);
    }
  });

  it("needs a reason from the list to lose a lead", () => {
    for (const from of ["new", "contacted", "qualified", "scheduled"] as const) {
      expect(checkTransition(from, "lost")).toEqual({
        ok: false,
        error: "Elige el motivo por el que se perdió el lead.",
      });
      expect(checkTransition(from, "lost", "")).toMatchObject({ ok: false });
      expect(checkTransition(from, "lost", "porque sí")).toMatchObject({ ok: false });
      for (const reason of lostReasons) {
        expect(checkTransition(from, "lost", reason)).toEqual({ ok: true, stampsContact: false, reason });
      }
    }
  });

  it("drops a reason given with a move that is not a loss", () => {
    expect(checkTransition("new", "contacted", "precio")).toEqual({
      ok: true,
      stampsContact: true,
      reason: null,
    });
  });

  it("stamps the contact on contacted and scheduled only, as spec 001 §4 says (not on qualified)", () => {
    expect(leadStatuses.filter(stampsContact)).toEqual(["contacted", "scheduled"]);
    expect(checkTransition("new", "qualified")).toMatchObject({ ok: true, stampsContact: false });
    expect(checkTransition("contacted", "qualified")).toMatchObject({ ok: true, stampsContact: false });
    expect(checkTransition("new", "scheduled")).toMatchObject({ ok: true, stampsContact: true });
    expect(checkTransition("scheduled", "converted")).toMatchObject({ ok: true, stampsContact: false });
    expect(checkTransition("lost", "contacted")).toMatchObject({ ok: true, stampsContact: true });
  });

  it("keeps the furthest stage a lead reached: 10 contacted, 5 of them lost, still 10 in 'Contacto'", () => {
    const reached = Array.from({ length: 10 }, () => furthestStageAfter(0, "contacted"));
    const after = reached.map((stage, index) => (index < 5 ? furthestStageAfter(stage, "lost") : stage));
    expect(after.filter((stage) => stage >= FUNNEL_STAGE.contacted)).toHaveLength(10);
    expect(furthestStageAfter(FUNNEL_STAGE.scheduled, "contacted")).toBe(FUNNEL_STAGE.scheduled);
    expect(furthestStageAfter(0, "converted")).toBe(FUNNEL_STAGE.converted);
    expect(furthestStageAfter(0, "lost")).toBe(0);
  });

  it("has Spanish labels for every lost reason", () => {
    expect(Object.values(lostReasonLabels)).toEqual([
      "No responde",
      "Eligió otra clínica",
      "Precio",
      "No califica",
      "Duplicado",
      "Otro",
    ]);
  });
});

describe("contactOutcome ('Marcar contactado')", () => {
  it.each([
    ["new", "contacted"],
    ["contacted", "contacted"],
    ["qualified", "qualified"],
    ["scheduled", "scheduled"],
    ["lost", "contacted"],
    ["converted", null],
  ] as const)("%s → %s", (from, to) => {
    expect(contactOutcome(from)).toBe(to);
  });
});
