import { describe, expect, it } from "vitest";
import {
  defaultIncidentNotice,
  incidentRegisterCsv,
  mustNotifyPeople,
  parseAffectedContacts,
} from "./privacy-incidents";

describe("parseAffectedContacts", () => {
  it.each<[string, string[], string[]]>([
    ["ana@example.cl\nbeto@example.cl", ["ana@example.cl", "beto@example.cl"], []],
    ["Ana@Example.CL, ana@example.cl; <beto@example.cl>", ["ana@example.cl", "beto@example.cl"], []],
    ["+56912345678\nana@example.cl", ["ana@example.cl"], ["+56912345678"]],
    ["no-es-correo  ana@", [], ["no-es-correo", "ana@"]],
    ["   \n\n", [], []],
  ])("%j", (input, emails, invalid) => {
    expect(parseAffectedContacts(input)).toEqual({ emails, invalid });
  });
});

describe("the notice and the register", () => {
  it("people must be told when health data are involved", () => {
    expect(mustNotifyPeople({ sensitiveData: true })).toBe(true);
    expect(mustNotifyPeople({ sensitiveData: false })).toBe(false);
  });

  it("proposes a text that says what happened, which data, what was done, and the right to complain", () => {
    const text = defaultIncidentNotice({
      clinicName: "Río Clínica",
      privacyEmail: "privacidad@example.cl",
      phone: "+56 2 2654 3210",
      title: "acceso indebido a la agenda",
      occurred: null,
      discovered: "20 de noviembre de 2026 a las 11:40",
      dataCategories: "nombre y fecha de la cita",
      measures: "Cambiamos las claves.",
    });
    expect(text).toContain("El 20 de noviembre de 2026 a las 11:40 detectamos un incidente de seguridad");
    expect(text).toContain("Datos afectados: nombre y fecha de la cita.");
    expect(text).toContain("Lo que hicimos: Cambiamos las claves.");
    expect(text).toContain("privacidad@example.cl");
    expect(text).toContain("Agencia de Protección de Datos Personales");
  });

  it("writes the register in the product's CSV dialect, formulas neutralised", () => {
    const csv = incidentRegisterCsv([
      {
        id: "i-1",
        title: '=HYPERLINK("x")',
        description: "Fuga; parcial",
        occurred: "",
        discovered: "20-11-2026, 11:40",
        dataCategories: "correo",
        sensitiveData: true,
        peopleAffected: 3,
        affectedDescription: "",
        measures: "",
        agencyNotified: "",
        peopleNotified: "",
        noticesSent: 2,
        status: "Abierto",
        recorded: "20-11-2026, 12:00",
      },
    ]);
    const [header, row] = csv.slice(1).split("\r\n");
    expect(csv.startsWith("\uFEFFID;Incidente;")).toBe(true);
    expect(header!.split(";")).toHaveLength(15);
    expect(row).toBe(
      `i-1;"'=HYPERLINK(""x"")";"Fuga; parcial";;"20-11-2026, 11:40";correo;Sí;3;;;;;2;Abierto;"20-11-2026, 12:00"`,
    );
  });
});
