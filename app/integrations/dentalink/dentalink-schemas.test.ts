import { describe, expect, it } from "vitest";
import {
  canonicalRut,
  dentalinkAppointmentRecordSchema,
  dentalinkDateSchema,
  dentalinkErrorMessage,
  dentalinkFilterSchema,
  dentalinkItemSchema,
  dentalinkListSchema,
  dentalinkPatientRecordSchema,
  dentalinkTimeSchema,
  nextPageUrl,
  normaliseDentalinkDate,
  normaliseDentalinkTime,
} from "./dentalink-schemas";

describe("dates and times", () => {
  it("normalises AAAA-MM-DD and DD/MM/AAAA to AAAA-MM-DD", () => {
    expect(normaliseDentalinkDate("2026-03-05")).toBe("2026-03-05");
    expect(normaliseDentalinkDate("05/03/2026")).toBe("2026-03-05");
    expect(normaliseDentalinkDate("5/3/2026")).toBe("2026-03-05");
    expect(normaliseDentalinkDate(" 2026-3-5 ")).toBe("2026-03-05");
    expect(normaliseDentalinkDate("2026-03-05 10:30:00")).toBe("2026-03-05");
    expect(normaliseDentalinkDate("2026-03-05T10:30:00Z")).toBe("2026-03-05");
    expect(normaliseDentalinkDate("29/02/2024")).toBe("2024-02-29");
  });

  it("refuses what is not a calendar date", () => {
    for (const value of [
      "29/02/2025",
      "2026-13-01",
      "31/04/2026",
      "2026/03/05",
      "03-05-2026",
      "mañana",
      "",
    ]) {
      expect(normaliseDentalinkDate(value)).toBeNull();
    }
  });

  it("parses optional dates: absent and PHP's zero dates are null, a bad one fails", () => {
    expect(dentalinkDateSchema.parse(undefined)).toBeNull();
    expect(dentalinkDateSchema.parse(null)).toBeNull();
    expect(dentalinkDateSchema.parse("")).toBeNull();
    expect(dentalinkDateSchema.parse("0000-00-00")).toBeNull();
    expect(dentalinkDateSchema.parse("14/03/1988")).toBe("1988-03-14");
    expect(dentalinkDateSchema.safeParse("14-03-1988").success).toBe(false);
  });

  it("normalises times to HH:MM", () => {
    expect(normaliseDentalinkTime("9:00")).toBe("09:00");
    expect(normaliseDentalinkTime("10:30:00")).toBe("10:30");
    expect(normaliseDentalinkTime("24:00")).toBeNull();
    expect(normaliseDentalinkTime("10h30")).toBeNull();
    expect(dentalinkTimeSchema.parse(undefined)).toBeNull();
    expect(dentalinkTimeSchema.safeParse("tarde").success).toBe(false);
  });
});

describe("records and envelope", () => {
  it("reads a list page with links.next, and the last page without links", () => {
    const schema = dentalinkListSchema(dentalinkPatientRecordSchema);
    const page = schema.parse({
      data: [{ id: 1, nombre: "Ana", apellidos: "Soto", fecha_nacimiento: "01/02/1990", extra: true }],
      links: { current: "x", next: "https://api.example/api/v1/pacientes?cursor=abc" },
    });
    expect(page.data[0]).toMatchObject({ id: 1, nombre: "Ana", fecha_nacimiento: "1990-02-01", extra: true });
    expect(nextPageUrl(page.links)).toBe("https://api.example/api/v1/pacientes?cursor=abc");
    expect(nextPageUrl(schema.parse({ data: [] }).links)).toBeUndefined();
    expect(nextPageUrl(schema.parse({ data: [], links: { next: null } }).links)).toBeUndefined();
    expect(nextPageUrl(schema.parse({ data: [], links: [] }).links)).toBeUndefined();
  });

  it("accepts every id, date and time variant of an appointment", () => {
    const schema = dentalinkItemSchema(dentalinkAppointmentRecordSchema);
    expect(
      schema.parse({ data: { appointment_id: "A-1", date: "2026-03-05", time: "9:30" } }).data,
    ).toMatchObject({ appointment_id: "A-1", date: "2026-03-05", time: "09:30" });
    expect(
      schema.parse({ data: { id_cita: 7, fecha: "05/03/2026", hora_inicio: "09:30:00" } }).data,
    ).toMatchObject({ id_cita: 7, fecha: "2026-03-05", hora_inicio: "09:30" });
  });

  it("fails a list whose data is not a list or whose record has a wrong type", () => {
    const schema = dentalinkListSchema(dentalinkPatientRecordSchema);
    expect(schema.safeParse({ data: { id: 1 } }).success).toBe(false);
    expect(schema.safeParse({ data: [{ id: 1, email: 42 }] }).success).toBe(false);
    expect(schema.safeParse({ items: [] }).success).toBe(false);
  });
});

describe("errors, filters and RUTs", () => {
  it("reads both error bodies", () => {
    expect(dentalinkErrorMessage({ error: { message: "Token inválido" } })).toBe("Token inválido");
    expect(dentalinkErrorMessage({ message: "El paciente ya existe" })).toBe("El paciente ya existe");
    expect(dentalinkErrorMessage({ error: "x" })).toBeUndefined();
    expect(dentalinkErrorMessage("<html>")).toBeUndefined();
  });

  it("validates q filters: operators, arrays of conditions", () => {
    expect(dentalinkFilterSchema.safeParse({ rut: { eq: "12345678-5" } }).success).toBe(true);
    expect(
      dentalinkFilterSchema.safeParse({ fecha: [{ gte: "2026-01-01" }, { lte: "2026-12-31" }] }).success,
    ).toBe(true);
    expect(dentalinkFilterSchema.safeParse({ rut: { like: "1" } }).success).toBe(false);
    expect(dentalinkFilterSchema.safeParse({ rut: "12345678-5" }).success).toBe(false);
    expect(dentalinkFilterSchema.safeParse([1]).success).toBe(false);
  });

  it("canonicalises a RUT for the eq filter", () => {
    expect(canonicalRut("12.345.678-5")).toBe("12345678-5");
    expect(canonicalRut("12345678-5")).toBe("12345678-5");
    expect(canonicalRut("9.876.543-k")).toBe("9876543-K");
    expect(canonicalRut("98765433")).toBe("9876543-3");
  });
});
