import { describe, expect, it } from "vitest";
import type { DentalinkDentist } from "~/integrations/dentalink/dentalink-mapping";
import { matchDentalinkDentist } from "./dentalink-writethrough.server";

const dentist = (id: string, name: string, active = true): DentalinkDentist => ({
  id,
  name,
  specialty: null,
  intervalMinutes: 30,
  active,
});

describe("matchDentalinkDentist", () => {
  const list = [
    dentist("dr-off", "Fernanda Vidal", false),
    dentist("dr-a", "Andrés Morales"),
    dentist("dr-v", "Dra. Fernanda Vidal"),
  ];

  it("finds the active dentist of the same name, ignoring accents, case and a 'Dr./Dra.' prefix", () => {
    expect(matchDentalinkDentist(list, "fernanda  VIDAL")).toEqual({ dentist: list[2], exact: true });
    expect(matchDentalinkDentist(list, "Andres Morales")).toEqual({ dentist: list[1], exact: true });
  });

  it("falls back to the first active dentist, flagged as not exact", () => {
    expect(matchDentalinkDentist(list, "Ignacio Rojas")).toEqual({ dentist: list[1], exact: false });
  });

  it("answers null when Dentalink has no active dentist", () => {
    expect(matchDentalinkDentist([dentist("dr-off", "X", false)], "X")).toBeNull();
  });
});
