import { describe, expect, it } from "vitest";
import { loggableUrl } from "./loggable-url";

describe("loggableUrl", () => {
  it("hides a reminder link's token and token or code query values", () => {
    const token = "aV3kP0q9Xn2mZ7rT1yB4cD6eF8gH0jK2lM4nO6pQ8rS";
    expect(loggableUrl(`https://clinica.example/cita/confirmar/${token}`)).toBe(
      "https://clinica.example/cita/confirmar/[oculto]",
    );
    expect(loggableUrl(`https://clinica.example/cita/cancelar/${token}.data?x=1`)).toBe(
      "https://clinica.example/cita/cancelar/[oculto]?x=1",
    );
    // The third link, 'Necesito hablar con alguien' (ADR 039).
    expect(loggableUrl(`https://clinica.example/cita/hablar/${token}`)).toBe(
      "https://clinica.example/cita/hablar/[oculto]",
    );
    expect(loggableUrl(`/cita/hablar/${token}.data`)).not.toContain(token);
    expect(loggableUrl("https://clinica.example/api/auth/verify-email?token=abc.def&callbackURL=%2F")).toBe(
      "https://clinica.example/api/auth/verify-email?token=[oculto]&callbackURL=%2F",
    );
  });

  it("hides the token of a rights request's confirmation link", () => {
    const token = "Qm9uam91ci1sYS1jbGluaWNhLTIwMjYtc2VjcmV0bw";
    expect(loggableUrl(`https://clinica.example/eliminar-datos/confirmar/${token}`)).toBe(
      "https://clinica.example/eliminar-datos/confirmar/[oculto]",
    );
    expect(loggableUrl(`https://clinica.example/eliminar-datos/confirmar/${token}.data`)).not.toContain(
      token,
    );
  });

  it("hides the token of a waitlist offer's link", () => {
    const token = "T2ZlcnRhLWxpc3RhLWRlLWVzcGVyYS0yMDI2LXNlY3I";
    expect(loggableUrl(`https://clinica.example/lista-de-espera/oferta/${token}`)).toBe(
      "https://clinica.example/lista-de-espera/oferta/[oculto]",
    );
    expect(loggableUrl(`https://clinica.example/lista-de-espera/oferta/${token}.data`)).not.toContain(token);
  });

  it("leaves other URLs as they are", () => {
    expect(loggableUrl("https://clinica.example/funnel/mensajes?estado=failed")).toBe(
      "https://clinica.example/funnel/mensajes?estado=failed",
    );
    expect(loggableUrl("no es una url")).toBe("[URL no válida]");
  });
});

it("hides a chat room link's signed token (?sala=, ADR 043)", () => {
  expect(loggableUrl("https://clinica.test/paciente?sala=v1.abc.def&open_mode=widget")).toBe(
    "https://clinica.test/paciente?sala=[oculto]&open_mode=widget",
  );
});
