import { describe, expect, it } from "vitest";
import { IntegrationError } from "~/integrations/http.server";
import { classifySyncError } from "./sync-errors.server";

function vendorError(status: number | null, code?: string) {
  return new IntegrationError({ system: "dentalink", status, body: null, code, message: "dentalink failed" });
}

describe("classifySyncError", () => {
  it("says 'Error de conexión' for network failures, timeouts, 429, 5xx and an open circuit", () => {
    for (const error of [
      vendorError(null, "NETWORK"),
      vendorError(null, "TIMEOUT"),
      vendorError(429, "RATE_LIMITED"),
      vendorError(503, "SERVER_ERROR"),
      vendorError(null, "CIRCUIT_OPEN"),
    ]) {
      expect(classifySyncError(error)).toMatchObject({
        message: "Error al sincronizar con Dentalink",
        errors: ["Error de conexión"],
      });
    }
  });

  it("says 'Datos duplicados' for a taken slot or a patient refused as existing", () => {
    for (const error of [vendorError(409, "SLOT_TAKEN"), vendorError(400, "DUPLICATE_PATIENT")]) {
      expect(classifySyncError(error)).toMatchObject({
        message: "Error al sincronizar con Dentalink",
        errors: ["Datos duplicados"],
      });
    }
  });

  it("says 'Error de sistema' for anything else, keeping the technical detail for the log", () => {
    const unexpected = {
      message: "Error inesperado al procesar la solicitud",
      errors: ["Error de sistema"],
    };
    expect(classifySyncError(vendorError(401, "UNAUTHORIZED"))).toMatchObject(unexpected);
    expect(classifySyncError(vendorError(200, "INVALID_RESPONSE"))).toMatchObject(unexpected);
    const bug = classifySyncError(new TypeError("x is undefined"));
    expect(bug).toMatchObject(unexpected);
    expect(bug.detail).toBe("TypeError: x is undefined");
  });
});
