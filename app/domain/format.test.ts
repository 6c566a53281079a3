import { describe, expect, it } from "vitest";
import {
  formatCLP,
  formatChileanPhone,
  formatClinicDateTime,
  formatClinicDateTimeNumeric,
  formatClinicDateTimeSeconds,
  formatClinicTime,
  formatClinicTimestamp,
  formatDate,
  formatDateWithWeekday,
  formatDayHeading,
  formatDurationMinutes,
  formatShortDate,
  formatShortDay,
  formatWeekdayShort,
  parseChileanPhone,
  whatsappNumber,
} from "./format";

describe("parseChileanPhone", () => {
  it.each([
    ["+56 9 8765 4321", "+56987654321"],
    ["987654321", "+56987654321"],
    ["9 8765 4321", "+56987654321"],
    ["56987654321", "+56987654321"],
    ["+56 (2) 2345-6789", "+56223456789"],
    ["22345 6789", "+56223456789"],
    ["+56 32 234 5678", "+56322345678"],
    ["(41) 234 5678", "+56412345678"],
  ])("accepts %s", (input, expected) => {
    expect(parseChileanPhone(input)).toBe(expected);
  });

  it.each([
    "",
    "12345",
    "98765432",
    "9876543210",
    "+54 9 11 2345 6789",
    "+1 555 123 4567",
    "812345678",
    "19 8765 4321",
    "9876abc54321",
    "<script>",
  ])("rejects %j", (input) => {
    expect(parseChileanPhone(input)).toBeNull();
  });
});

describe("formatChileanPhone", () => {
  it("groups mobiles and Santiago landlines 1-4-4", () => {
    expect(formatChileanPhone("+56987654321")).toBe("+56 9 8765 4321");
    expect(formatChileanPhone("+56223456789")).toBe("+56 2 2345 6789");
  });
  it("groups regional numbers 2-3-4", () => {
    expect(formatChileanPhone("+56322345678")).toBe("+56 32 234 5678");
  });
  it("leaves anything else untouched", () => {
    expect(formatChileanPhone("+1555")).toBe("+1555");
  });
  it("gives wa.me digits", () => {
    expect(whatsappNumber("+56987654321")).toBe("56987654321");
  });
});

describe("formatCLP", () => {
  it.each([
    [0, "$0"],
    [990, "$990"],
    [45000, "$45.000"],
    [1500000, "$1.500.000"],
    [1234.6, "$1.235"],
  ])("%d → %s", (amount, expected) => {
    expect(formatCLP(amount)).toBe(expected);
  });
});

describe("dates", () => {
  it("formats calendar dates in es-CL without shifting the day", () => {
    expect(formatDate("2024-01-15")).toBe("15 de enero de 2024");
    expect(formatDate("2023-12-20")).toBe("20 de diciembre de 2023");
    expect(formatDateWithWeekday("2024-01-15")).toBe("lunes, 15 de enero de 2024");
  });
  it("rejects malformed dates", () => {
    expect(() => formatDate("15/01/2024")).toThrow(RangeError);
  });
  it("shows instants on the clinic's clock (UTC-3 in summer, UTC-4 in winter)", () => {
    expect(formatClinicTime(new Date("2026-01-15T12:30:00Z"))).toBe("09:30");
    expect(formatClinicTime(new Date("2026-07-15T13:30:00Z"))).toBe("09:30");
    expect(formatClinicDateTime(new Date("2026-01-15T12:30:00Z"))).toBe("15 de enero de 2026 a las 09:30");
  });
});

describe("the date family: each formatter reads as the screen's own formatter did", () => {
  const instant = new Date("2026-11-25T04:52:36Z");

  it("formats calendar dates without shifting them", () => {
    expect(formatDayHeading("2025-11-24")).toBe("lunes, 24 de noviembre");
    expect(formatWeekdayShort("2026-11-25").replace(".", "")).toBe("mié");
    expect(formatShortDay("2026-11-03")).toBe("3 nov");
    expect(formatShortDate("2026-10-26")).toBe("26 oct 2026");
  });

  it("formats instants on the clinic's clock", () => {
    expect(formatClinicDateTimeNumeric(new Date("2024-01-15T12:30:00Z"))).toBe("15-01-2024, 09:30");
    expect(formatClinicDateTimeSeconds(instant)).toBe("25-11-2026, 01:52:36");
    // The staff inbox's "Última actividad", as toLocaleString wrote it with the zone given by hand.
    expect(formatClinicTimestamp(instant)).toBe(
      instant.toLocaleString("es-CL", { timeZone: "America/Santiago" }),
    );
    expect(formatClinicTimestamp(instant)).toMatch(/^25-11-2026, 1:52:36\sa\.\sm\.$/);
    expect(formatClinicTime(instant)).toBe("01:52");
  });
});

describe("formatDurationMinutes", () => {
  it.each([
    [0, "0 min"],
    [12.4, "12 min"],
    [59.6, "1 h"],
    [60, "1 h"],
    [125, "2 h 5 min"],
    [1440, "1 día"],
    [1507, "1 día 1 h"],
    [2 * 1440 + 180 + 7, "2 días 3 h"],
    [12 * 1440 + 300, "12 días"],
    [-5, "0 min"],
  ])("%d minutes → %s", (minutes, text) => {
    expect(formatDurationMinutes(minutes)).toBe(text);
  });
});
