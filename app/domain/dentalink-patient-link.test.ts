import { describe, expect, it } from "vitest";
import { chooseDentalinkPatient, type DentalinkPatientFacts } from "./dentalink-patient-link";

const none: DentalinkPatientFacts = { boundPatientId: null, linked: null, emailVerified: true };

describe("chooseDentalinkPatient", () => {
  it("uses the Mi Ficha binding before anything else, and stores it when the link differs", () => {
    expect(chooseDentalinkPatient({ ...none, boundPatientId: "1001" })).toEqual({
      action: "use",
      patientId: "1001",
      source: "binding",
      store: true,
    });
    expect(
      chooseDentalinkPatient({
        ...none,
        boundPatientId: "1001",
        linked: { patientId: "2002", source: "created" },
      }),
    ).toMatchObject({ patientId: "1001", store: true });
    expect(
      chooseDentalinkPatient({
        ...none,
        boundPatientId: "1001",
        linked: { patientId: "1001", source: "binding" },
      }),
    ).toMatchObject({ patientId: "1001", store: false });
  });

  it("reuses a stored link without searching again, whatever the profile says now", () => {
    expect(
      chooseDentalinkPatient({
        ...none,
        linked: { patientId: "2002", source: "created" },
        emailMatches: [{ patientId: "3003", boundToAnotherAccount: false }],
      }),
    ).toEqual({ action: "use", patientId: "2002", source: "created", store: false });
  });

  it("asks for the e-mail search only for a verified e-mail", () => {
    expect(chooseDentalinkPatient(none)).toEqual({ action: "search-email" });
    expect(chooseDentalinkPatient({ ...none, emailVerified: false })).toEqual({ action: "create" });
  });

  it("takes the one Dentalink patient with the verified e-mail", () => {
    expect(
      chooseDentalinkPatient({
        ...none,
        emailMatches: [{ patientId: "3003", boundToAnotherAccount: false }],
      }),
    ).toEqual({ action: "use", patientId: "3003", source: "email", store: true });
  });

  it("creates a new patient when the e-mail matches nobody, several patients, or one another account bound", () => {
    expect(chooseDentalinkPatient({ ...none, emailMatches: [] })).toEqual({ action: "create" });
    expect(
      chooseDentalinkPatient({
        ...none,
        emailMatches: [
          { patientId: "3003", boundToAnotherAccount: false },
          { patientId: "3004", boundToAnotherAccount: false },
        ],
      }),
    ).toEqual({ action: "create" });
    expect(
      chooseDentalinkPatient({ ...none, emailMatches: [{ patientId: "3003", boundToAnotherAccount: true }] }),
    ).toEqual({ action: "create" });
  });
});
