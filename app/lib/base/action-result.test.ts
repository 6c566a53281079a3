import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  actionFailure,
  actionSuccess,
  fieldError,
  formLevelMessage,
  validationFailure,
} from "./action-result";
import { formToObject } from "../form-data";

const schema = z
  .object({
    name: z.string().trim().min(2, "Ingresa tu nombre."),
    phone: z.string().min(1, "Ingresa tu teléfono.").regex(/^\d+$/, "Solo números."),
    password: z.string(),
    confirm: z.string(),
  })
  .refine((value) => value.password === value.confirm, {
    path: ["confirm"],
    message: "Las contraseñas no coinciden.",
  });

describe("action results", () => {
  it("keeps every message per field, the first one as the form's message", () => {
    const parsed = schema.safeParse({ name: "", phone: "", password: "a", confirm: "b" });
    if (parsed.success) throw new Error("expected a failure");
    expect(validationFailure(parsed.error)).toEqual({
      ok: false,
      code: "VALIDATION",
      message: "Ingresa tu nombre.",
      fieldErrors: {
        name: ["Ingresa tu nombre."],
        phone: ["Ingresa tu teléfono.", "Solo números."],
        confirm: ["Las contraseñas no coinciden."],
      },
    });
  });

  it("puts a refinement on its path; issues about the whole object go under the form key", () => {
    const parsed = schema.safeParse({ name: "Ana", phone: "1", password: "a", confirm: "b" });
    if (parsed.success) throw new Error("expected a failure");
    expect(validationFailure(parsed.error).fieldErrors).toEqual({
      confirm: ["Las contraseñas no coinciden."],
    });
    const whole = z
      .object({})
      .refine(() => false, "Nada que guardar.")
      .safeParse({});
    if (whole.success) throw new Error("expected a failure");
    expect(validationFailure(whole.error).fieldErrors).toEqual({ "": ["Nada que guardar."] });
  });

  it("leaves out what a success does not carry and reads failures for forms", () => {
    expect(actionSuccess()).toEqual({ ok: true });
    expect(actionSuccess(undefined, "Listo.")).toEqual({ ok: true, message: "Listo." });
    expect(actionSuccess({ reference: "AB12" })).toEqual({ ok: true, data: { reference: "AB12" } });
    const refused = actionFailure("RATE_LIMITED", "Demasiados intentos.");
    expect(formLevelMessage(refused)).toBe("Demasiados intentos.");
    const invalid = actionFailure("VALIDATION", "Solo números.", { phone: ["Solo números.", "Otro."] });
    expect(formLevelMessage(invalid)).toBeUndefined();
    expect(fieldError(invalid, "phone")).toBe("Solo números.");
    expect(fieldError(actionSuccess(), "phone")).toBeUndefined();
  });
});

describe("formToObject (the action's and the browser's reading of a form)", () => {
  it("keeps the first value of a repeated field, drops files and has no prototype", () => {
    const form = new FormData();
    form.append("name", "Ana");
    form.append("name", "Otra");
    form.append("__proto__", "x");
    form.append("file", new Blob(["x"]), "a.txt");
    const result = formToObject(form);
    expect(Object.entries(result)).toEqual([
      ["name", "Ana"],
      ["__proto__", "x"],
    ]);
    expect(Object.getPrototypeOf(result)).toBeNull();
  });
});
