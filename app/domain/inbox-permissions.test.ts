import { describe, expect, it } from "vitest";
import { allowedInboxIntents, decideInboxAction, type InboxIntent } from "./inbox-permissions";

const asesorA = { id: "a", roles: ["asesor"] };
const asesorB = { id: "b", roles: ["asesor"] };
const dentista = { id: "d", roles: ["dentista"] };
const admin = { id: "x", roles: ["admin"] };
const superAdmin = { id: "s", roles: ["SUPER_ADMIN"] };

const heldByA = { status: "open", assignedTo: "a" };
const waiting = { status: "pending_human", assignedTo: null };
const withBot = { status: "bot", assignedTo: null };
const resolved = { status: "resolved", assignedTo: "a" };

type Actor = typeof asesorA;
type Room = { status: string; assignedTo: string | null };
type Outcome = "allowed" | "FORBIDDEN" | "CONFLICT";

const table: Array<[string, Actor, Room, InboxIntent, Outcome]> = [
  // A colleague's conversation: only the holder or an admin.
  ["B hands back A's", asesorB, heldByA, "handback", "FORBIDDEN"],
  ["B resolves A's", asesorB, heldByA, "resolve", "FORBIDDEN"],
  ["B takes A's over", asesorB, heldByA, "take", "FORBIDDEN"],
  ["a dentist takes A's over", dentista, heldByA, "take", "FORBIDDEN"],
  ["B replies in A's", asesorB, heldByA, "reply", "CONFLICT"],
  ["B leaves a note in A's", asesorB, heldByA, "note", "allowed"],
  ["A hands back her own", asesorA, heldByA, "handback", "allowed"],
  ["A resolves her own", asesorA, heldByA, "resolve", "allowed"],
  ["A replies in her own", asesorA, heldByA, "reply", "allowed"],
  ["A takes her own again", asesorA, heldByA, "take", "CONFLICT"],
  ["an admin takes A's over", admin, heldByA, "take", "allowed"],
  ["a super admin hands back A's", superAdmin, heldByA, "handback", "allowed"],
  ["an admin resolves A's", admin, heldByA, "resolve", "allowed"],
  ["an admin replies without taking", admin, heldByA, "reply", "CONFLICT"],
  // Nobody holds a waiting or bot conversation: anyone takes it; hand back and resolve are an admin's.
  ["B takes a waiting one", asesorB, waiting, "take", "allowed"],
  ["a dentist takes a waiting one", dentista, waiting, "take", "allowed"],
  ["B takes one from the bot", asesorB, withBot, "take", "allowed"],
  ["B hands back a waiting one", asesorB, waiting, "handback", "FORBIDDEN"],
  ["B resolves a waiting one", asesorB, waiting, "resolve", "FORBIDDEN"],
  ["B resolves one with the bot", asesorB, withBot, "resolve", "FORBIDDEN"],
  ["an admin hands back a waiting one", admin, waiting, "handback", "allowed"],
  ["an admin resolves one with the bot", admin, withBot, "resolve", "allowed"],
  ["an admin hands back one with the bot", admin, withBot, "handback", "CONFLICT"],
  // A resolved conversation moves no more.
  ["A takes a resolved one", asesorA, resolved, "take", "CONFLICT"],
  ["an admin resolves a resolved one", admin, resolved, "resolve", "CONFLICT"],
  ["an admin hands back a resolved one", admin, resolved, "handback", "CONFLICT"],
];

describe("who may do what in the inbox", () => {
  it.each(table)("%s", (_label, actor, room, intent, outcome) => {
    const decision = decideInboxAction(actor, room, intent);
    expect(decision.allowed ? "allowed" : decision.code).toBe(outcome);
    // A refusal says why, in a Spanish sentence.
    expect(decision.allowed || /^[A-ZÁÉÍÓÚ¿].*\.$/.test(decision.message)).toBe(true);
  });

  it("refusals of a colleague's conversation name who may", () => {
    for (const intent of ["take", "handback", "resolve"] as const) {
      const decision = decideInboxAction(asesorB, heldByA, intent);
      expect(!decision.allowed && decision.message).toMatch(/administrador/);
    }
  });

  it("gives the page the buttons to show", () => {
    expect(allowedInboxIntents(asesorB, heldByA)).toEqual({
      take: false,
      reply: false,
      handback: false,
      resolve: false,
    });
    expect(allowedInboxIntents(asesorA, heldByA)).toEqual({
      take: false,
      reply: true,
      handback: true,
      resolve: true,
    });
    expect(allowedInboxIntents(admin, heldByA)).toEqual({
      take: true,
      reply: false,
      handback: true,
      resolve: true,
    });
    expect(allowedInboxIntents(asesorB, waiting)).toEqual({
      take: true,
      reply: false,
      handback: false,
      resolve: false,
    });
  });
});
