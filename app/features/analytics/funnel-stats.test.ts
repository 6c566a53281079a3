import { describe, expect, it } from "vitest";
import { formatPercent, formatResponseMinutes } from "./funnel-stats";

describe("funnel stats", () => {
  it("formats the rate in es-CL with one decimal and the response time in minutes", () => {
    expect(formatPercent(0.115)).toBe("11,5%");
    expect(formatPercent(0)).toBe("0,0%");
    expect(formatResponseMinutes(12.4)).toBe("12 min");
    // Issue 24, item 15: "1.507 min" is read as a duration.
    expect(formatResponseMinutes(1507)).toBe("1 día 1 h");
    expect(formatResponseMinutes(null)).toBe("—");
  });
});
