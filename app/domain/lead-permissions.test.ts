import { describe, expect, it } from "vitest";
import { canChangeLead } from "./lead-permissions";

const A = "asesor-a";
const B = "asesor-b";

describe("canChangeLead", () => {
  it.each([
    // who, their roles, the lead's assignee, may change
    [A, ["asesor"], A, true],
    [A, ["asesor"], null, true],
    [B, ["asesor"], A, false],
    ["admin", ["admin"], A, true],
    ["admin", ["admin"], null, true],
    ["root", ["super_admin"], A, true],
    [B, ["asesor", "admin"], A, true],
    ["dentist", ["dentista"], null, false],
    ["dentist", ["dentista"], "dentist", false],
    ["patient", ["paciente"], null, false],
    ["nobody", [], null, false],
  ] as const)("%s (%j) on a lead assigned to %s: %s", (id, roles, assignee, expected) => {
    expect(canChangeLead({ id, roles }, assignee)).toBe(expected);
  });
});
