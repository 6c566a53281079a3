import { describe, expect, it } from "vitest";
import { defaultClinic } from "./clinic";

describe("clinic hours", () => {
  it("states one set of hours, Monday to Friday 9:00–18:00, in every wording", () => {
    expect(defaultClinic.opens).toBe("09:00");
    expect(defaultClinic.closes).toBe("18:00");
    expect(defaultClinic.hoursShort).toBe("Lun - Vie: 9:00 AM - 18:00 hrs");
    expect(defaultClinic.hoursLong).toBe("Lunes a viernes, 9:00 a 18:00 hrs");
    expect(defaultClinic.hoursInSentence).toBe("de lunes a viernes, de 9:00 a 18:00 hrs");
    expect(defaultClinic.hoursCompact).toBe("Lun-Vie 9:00-18:00");
    expect(defaultClinic.saturday).toBe("Sábados: consultar disponibilidad");
  });
});
