import { describe, expect, it } from "vitest";
import { SYNC_CONNECTION_ERROR, SYNC_SUCCESS_TITLE } from "~/features/dentalink-sync/sync-options";
import { catalogues } from "~/i18n/messages";
import { RUT_MESSAGES } from "./rut";
import { unaccentedForms } from "./spanish-orthography";

describe("unaccentedForms", () => {
  it.each([
    ["Cerrar Sesion", 1],
    ["Cerrar Sesión", 0],
    ["El RUT ingresado no es valido", 1],
    ["Error de conexion", 1],
    ["Sincronizacion Exitosa", 1],
    ["Escríbenos a contacto@clinica.example o visita https://clinica.example/mas", 0],
    ["Río Clínica", 0],
    ["Plantilla: cita_cancelada_clinica · lead_confirmacion_paciente", 0],
    ["más información", 0],
    ["mas informacion", 2],
  ])("%j → %d", (text, count) => {
    expect(unaccentedForms(text)).toHaveLength(count);
  });
});

describe("the Spanish texts are written with their accents (issue 24, item 13)", () => {
  it("the es message catalogue", () => {
    expect(Object.values(catalogues.es).flatMap(unaccentedForms)).toEqual([]);
  });

  it("the spec's messages kept in code", () => {
    expect(
      [...Object.values(RUT_MESSAGES), SYNC_CONNECTION_ERROR, SYNC_SUCCESS_TITLE].flatMap(unaccentedForms),
    ).toEqual([]);
  });
});
