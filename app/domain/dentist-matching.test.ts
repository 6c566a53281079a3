import { describe, expect, it } from "vitest";
import { matchDentistsByName, normaliseDentistName } from "./dentist-matching";

const theirs = (id: string, name: string, active = true) => ({ id, name, active });

describe("normaliseDentistName", () => {
  it("ignores accents, case, a Dr./Dra. title, punctuation and extra spaces", () => {
    expect(normaliseDentistName("Dra. Fernanda  VIDAL")).toBe("fernanda vidal");
    expect(normaliseDentistName("  Andrés Morales ")).toBe("andres morales");
    expect(normaliseDentistName("dr Tomás Araya-Soto")).toBe("tomas araya soto");
    expect(normaliseDentistName("Ñuñez")).toBe("nunez");
  });

  it("keeps names that only start like a title", () => {
    expect(normaliseDentistName("Drago Pérez")).toBe("drago perez");
  });
});

describe("matchDentistsByName", () => {
  it("pairs equal names across accents and case, only with active dentists", () => {
    const pairs = matchDentistsByName(
      [
        { id: "u1", name: "Andres MORALES" },
        { id: "u2", name: "Fernanda Vidal" },
        { id: "u3", name: "Ignacio Rojas" },
      ],
      [
        theirs("dr-vidal-old", "Fernanda Vidal", false),
        theirs("dr-morales", "Dr. Andrés Morales"),
        theirs("dr-vidal", "Fernanda Vidal"),
        theirs("dr-campos", "Isidora Campos"),
      ],
    );
    expect(Object.fromEntries(pairs)).toEqual({ u1: "dr-morales", u2: "dr-vidal" });
  });

  it("pairs nobody on an ambiguous name, and never a Dentalink dentist already taken", () => {
    const twoOfTheirs = matchDentistsByName(
      [{ id: "u1", name: "Ana Soto" }],
      [theirs("a", "Ana Soto"), theirs("b", "ana soto")],
    );
    expect(twoOfTheirs.size).toBe(0);
    const twoOfOurs = matchDentistsByName(
      [
        { id: "u1", name: "Ana Soto" },
        { id: "u2", name: "Ana  Soto" },
      ],
      [theirs("a", "Ana Soto")],
    );
    expect(twoOfOurs.size).toBe(0);
    const taken = matchDentistsByName(
      [{ id: "u1", name: "Ana Soto" }],
      [theirs("a", "Ana Soto")],
      new Set(["a"]),
    );
    expect(taken.size).toBe(0);
  });
});
