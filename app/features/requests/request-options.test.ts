import { describe, expect, it } from "vitest";
import { callbackTimeLabels } from "./request-options";

describe("call-back times", () => {
  it("states the parts of the day from the clinic's hours, as the form has always shown them", () => {
    expect(callbackTimeLabels).toEqual({
      manana: "Mañana (9:00 a 13:00)",
      tarde: "Tarde (14:00 a 18:00)",
      cualquiera: "Cualquier horario",
    });
  });
});
