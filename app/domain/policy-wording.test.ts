import { describe, expect, it } from "vitest";
import {
  daysPhrase,
  hoursPhrase,
  lifetimePhrase,
  minutesPhrase,
  noticePhrase,
  percentPhrase,
} from "./policy-wording";

describe("policy wording", () => {
  it("writes hours, minutes and days with the singular for one", () => {
    expect(hoursPhrase(1)).toBe("1 hora");
    expect(hoursPhrase(24)).toBe("24 horas");
    expect(minutesPhrase(1)).toBe("1 minuto");
    expect(minutesPhrase(10)).toBe("10 minutos");
    expect(daysPhrase(1)).toBe("1 día");
    expect(daysPhrase(90)).toBe("90 días");
  });

  it("writes a lifetime in whole hours when it is one, else in minutes", () => {
    expect(lifetimePhrase(10 * 60_000)).toBe("10 minutos");
    expect(lifetimePhrase(60 * 60_000)).toBe("1 hora");
    expect(lifetimePhrase(24 * 60 * 60_000)).toBe("24 horas");
    expect(lifetimePhrase(90 * 60_000)).toBe("90 minutos");
  });

  it("writes a notice period as a sentence says it", () => {
    expect(noticePhrase(60)).toBe("una hora");
    expect(noticePhrase(120)).toBe("2 horas");
    expect(noticePhrase(30)).toBe("30 minutos");
  });

  it("writes a rate as a percentage", () => {
    expect(percentPhrase(0.5)).toBe("50%");
    expect(percentPhrase(1)).toBe("100%");
  });
});
