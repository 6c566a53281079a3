import { describe, expect, it } from "vitest";
import { budgets, treatments, urgencies } from "./lead-scoring";
import {
  budgetLabels,
  labelOf,
  leadLevelLabels,
  leadLevels,
  leadSourceLabels,
  leadSources,
  treatmentLabels,
  urgencyLabels,
} from "./lead-labels";

describe("lead labels", () => {
  it("label every stored value of the form's choices, levels and sources", () => {
    expect(Object.keys(treatmentLabels)).toEqual([...treatments]);
    expect(Object.keys(urgencyLabels)).toEqual([...urgencies]);
    expect(Object.keys(budgetLabels)).toEqual([...budgets]);
    expect(Object.keys(leadLevelLabels)).toEqual([...leadLevels]);
    expect(Object.keys(leadSourceLabels)).toEqual([...leadSources]);
  });

  it("labelOf gives the label, or the stored value itself when it has none", () => {
    expect(labelOf(leadSourceLabels, "asistente")).toBe("Asistente virtual");
    expect(labelOf(leadLevelLabels, "cold")).toBe("Frío");
    expect(labelOf(leadSourceLabels, "referido")).toBe("referido");
    expect(labelOf(leadSourceLabels, "toString")).toBe("toString");
  });
});
