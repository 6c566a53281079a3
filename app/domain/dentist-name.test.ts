import { describe, expect, it } from "vitest";
import { dentistDisplayName, isProfessionalTitle, professionalTitleOptions } from "./dentist-name";

describe("dentistDisplayName", () => {
  it.each([
    [{ firstName: "Andrés", lastName: "Morales", title: "dr" }, "Dr. Andrés Morales"],
    [{ firstName: "Fernanda", lastName: "Vidal", title: "dra" }, "Dra. Fernanda Vidal"],
    [{ firstName: "Isidora", lastName: "", title: "dra" }, "Dra. Isidora"],
    [{ firstName: " Tomás ", lastName: " Araya ", title: "dr" }, "Dr. Tomás Araya"],
    [{ firstName: "Inés", lastName: "Soto", title: null }, "Inés Soto"],
    [{ firstName: "Inés", lastName: "Soto" }, "Inés Soto"],
    [{ firstName: "Inés", lastName: "Soto", title: "Dra." }, "Inés Soto"],
    [{ firstName: "", lastName: null, title: "dr" }, ""],
  ])("%j → %s", (parts, expected) => {
    expect(dentistDisplayName(parts)).toBe(expected);
  });

  it("a woman with the title 'dra' is never called 'Dr.'", () => {
    expect(dentistDisplayName({ firstName: "Fernanda", lastName: "Vidal", title: "dra" })).not.toMatch(
      /^Dr\. /,
    );
  });
});

describe("professional titles", () => {
  it("accepts only the recorded values and offers each with a 'none' choice", () => {
    expect(isProfessionalTitle("dr")).toBe(true);
    expect(isProfessionalTitle("dra")).toBe(true);
    expect(isProfessionalTitle("Dr.")).toBe(false);
    expect(isProfessionalTitle(null)).toBe(false);
    expect(professionalTitleOptions.map((option) => option.value)).toEqual(["dr", "dra", ""]);
  });
});
