import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { zodFieldErrors } from "~/lib/base/action-result";
import { addDays, clinicInstant } from "~/domain/clinic-time";
import { PHONE_ERROR } from "~/lib/validation";
import { SYNC_PAST_DATE_MESSAGE, SYNC_REQUIRED_MESSAGES } from "./sync-options";
import { syncActionSchema, syncFormSchema } from "./sync-schema";

// The schema reads the clock for "today": it is fixed here, so that no test runs on another day than `today` (a
// run across midnight), at 23:30 in Santiago, when UTC is already on the next day.
const today = "2026-11-27";
beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(clinicInstant(today, "23:30"));
});
afterAll(() => {
  vi.useRealTimers();
});

function validForm(overrides: Record<string, string> = {}) {
  return {
    firstName: "Rosa",
    lastName: "Díaz Fuentes",
    rut: "",
    email: "Rosa@Correo.CL ",
    phone: "9 1234 5678",
    birthDate: "1990-04-02",
    address: "",
    city: "",
    treatmentType: "limpieza",
    appointmentDate: addDays(today, 3),
    appointmentTime: "10:30",
    dentistId: "dr-vidal",
    insuranceProvider: "",
    emergencyContact: "",
    medicalHistory: "",
    notes: "",
    ...overrides,
  };
}

function errorsOf(input: Record<string, unknown>) {
  const parsed = syncFormSchema.safeParse(input);
  return parsed.success ? {} : zodFieldErrors(parsed.error);
}

describe("syncFormSchema", () => {
  it("accepts a complete form, canonical e-mail, E.164 phone and RUT", () => {
    const parsed = syncFormSchema.parse(validForm({ rut: "12.345.678-5" }));
    expect(parsed).toMatchObject({
      email: "rosa@correo.cl",
      phone: "+56912345678",
      rut: "12345678-5",
      treatmentType: "limpieza",
      appointmentTime: "10:30",
    });
  });

  it("lists every required message at once, verbatim, for an empty form", () => {
    const errors = errorsOf({});
    expect(Object.fromEntries(Object.entries(errors).map(([field, list]) => [field, list[0]]))).toEqual(
      SYNC_REQUIRED_MESSAGES,
    );
  });

  it("counts whitespace-only text as empty", () => {
    const blank = Object.fromEntries(Object.keys(validForm()).map((key) => [key, "   "]));
    const errors = errorsOf(blank);
    for (const [field, message] of Object.entries(SYNC_REQUIRED_MESSAGES)) {
      expect(errors[field]).toEqual([message]);
    }
    expect(errors.rut).toBeUndefined();
  });

  it("refuses an appointment before today in the clinic's time, accepts today", () => {
    expect(errorsOf(validForm({ appointmentDate: addDays(today, -1) }))).toEqual({
      appointmentDate: [SYNC_PAST_DATE_MESSAGE],
    });
    expect(errorsOf(validForm({ appointmentDate: today }))).toEqual({});
  });

  it("checks the RUT, the phone, the e-mail, the choices and the dates", () => {
    const errors = errorsOf(
      validForm({
        rut: "12.345.678-9",
        phone: "123",
        email: "no-es-un-correo",
        treatmentType: "blanqueamiento",
        appointmentTime: "13:00",
        birthDate: addDays(today, 1),
        appointmentDate: "2026-02-30",
      }),
    );
    expect(errors).toEqual({
      rut: ["El RUT ingresado no es válido"],
      phone: [PHONE_ERROR],
      email: [expect.stringContaining("email válido")],
      treatmentType: ["Elige un tipo de tratamiento de la lista"],
      appointmentTime: ["Elige una hora de cita de la lista"],
      birthDate: ["La fecha de nacimiento no puede ser posterior a hoy"],
      appointmentDate: ["Ingresa una fecha de cita válida"],
    });
  });

  it("needs the submission id and takes an optional lead", () => {
    const base = { ...validForm(), intent: "dentalink-sync" };
    expect(syncActionSchema.safeParse(base).success).toBe(false);
    const parsed = syncActionSchema.parse({ ...base, submissionId: crypto.randomUUID(), leadId: "" });
    expect(parsed.leadId).toBeNull();
    expect(
      syncActionSchema.safeParse({ ...base, submissionId: crypto.randomUUID(), leadId: "1 or 1=1" }).success,
    ).toBe(false);
  });
});
