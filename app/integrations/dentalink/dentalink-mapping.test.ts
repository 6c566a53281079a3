import { describe, expect, it } from "vitest";
import { IntegrationError } from "../http.server";
import {
  DEFAULT_OFFICE,
  appointmentStateKind,
  cancelledState,
  isXrayFile,
  mapAppointment,
  mapAppointmentState,
  mapBranch,
  mapDentist,
  mapDocument,
  mapPatient,
  mapPatientFiles,
  mapPayment,
  mapTreatment,
  mapXray,
  parseClp,
} from "./dentalink-mapping";
import {
  dentalinkAppointmentRecordSchema,
  dentalinkAppointmentStateRecordSchema,
  dentalinkBranchRecordSchema,
  dentalinkDentistRecordSchema,
  dentalinkFileRecordSchema,
  dentalinkPatientRecordSchema,
  dentalinkPaymentRecordSchema,
  dentalinkTreatmentRecordSchema,
} from "./dentalink-schemas";

const patient = (value: unknown) => mapPatient(dentalinkPatientRecordSchema.parse(value));
const appointment = (value: unknown) => mapAppointment(dentalinkAppointmentRecordSchema.parse(value));
const payment = (value: unknown) => mapPayment(dentalinkPaymentRecordSchema.parse(value));
const treatment = (value: unknown) => mapTreatment(dentalinkTreatmentRecordSchema.parse(value));
const file = (value: unknown) => dentalinkFileRecordSchema.parse(value);
const state = (value: unknown) => mapAppointmentState(dentalinkAppointmentStateRecordSchema.parse(value));

function mappingError(run: () => unknown): IntegrationError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(IntegrationError);
  return caught as IntegrationError;
}

describe("patients", () => {
  it("maps Dentalink's record", () => {
    expect(
      patient({
        id: 1001,
        rut: "12345678-5",
        nombre: "Catalina",
        apellidos: "Soto",
        email: "catalina@correo.example",
        celular: "+56911112222",
        telefono: "+56222223333",
        fecha_nacimiento: "14/03/1988",
        direccion: "Los Leones 1450",
        comuna: "Providencia",
        numero_ficha: 77,
      }),
    ).toEqual({
      id: "1001",
      rut: "12345678-5",
      firstName: "Catalina",
      lastName: "Soto",
      name: "Catalina Soto",
      email: "catalina@correo.example",
      phone: "+56911112222",
      birthDate: "1988-03-14",
      address: "Los Leones 1450",
      city: "Providencia",
    });
  });

  it("accepts the spec's variants: name, correo, email_paciente, phone, telefono", () => {
    expect(
      patient({ id: "p1", name: "Ana Pérez", correo: "ana@correo.example", phone: "+569" }),
    ).toMatchObject({
      id: "p1",
      firstName: "Ana Pérez",
      lastName: "",
      name: "Ana Pérez",
      email: "ana@correo.example",
      phone: "+569",
    });
    expect(
      patient({ id: 2, nombre: "Luis", email_paciente: "l@correo.example", telefono: "222" }),
    ).toMatchObject({
      email: "l@correo.example",
      phone: "222",
      rut: null,
      birthDate: null,
    });
    // A blank variant does not hide a filled one.
    expect(patient({ id: 3, nombre: "Eva", email: "  ", correo: "eva@correo.example" }).email).toBe(
      "eva@correo.example",
    );
  });

  it("refuses a record without id or name, naming the fields, not the values", () => {
    const error = mappingError(() => patient({ rut: "12345678-5", email: "x@correo.example" }));
    expect(error.code).toBe("INVALID_RESPONSE");
    expect(error.retryable).toBe(false);
    expect(error.body).toEqual({ record: "patient", missing: ["id", "name"] });
    expect(error.message).not.toContain("12345678");
  });
});

describe("appointments", () => {
  it("maps Dentalink's cita with dentist, branch, state and the default office", () => {
    expect(
      appointment({
        id: 5002,
        id_paciente: 1001,
        fecha: "2026-09-15",
        hora_inicio: "09:30:00",
        hora_fin: "10:00:00",
        duracion: 30,
        id_estado: 3,
        estado_cita: "Confirmado",
        estado_anulacion: 0,
        nombre_tratamiento: "Control de ortodoncia",
        id_dentista: 12,
        nombre_dentista: "Fernanda Vidal",
        id_sucursal: 1,
        nombre_sucursal: "Sucursal Providencia",
        comentarios: "",
      }),
    ).toEqual({
      id: "5002",
      patientId: "1001",
      date: "2026-09-15",
      time: "09:30",
      endTime: "10:00",
      durationMinutes: 30,
      status: "Confirmado",
      statusKind: "confirmed",
      stateId: "3",
      treatment: "Control de ortodoncia",
      dentist: "Fernanda Vidal",
      dentistId: "12",
      office: DEFAULT_OFFICE,
      branch: "Sucursal Providencia",
      branchId: "1",
      comment: null,
    });
  });

  it("accepts the spec's variants: appointment_id, date, time, status, treatment, doctor, office", () => {
    expect(
      appointment({
        appointment_id: "A-9",
        date: "05/03/2026",
        time: "9:00",
        status: "cancelada",
        treatment: "Limpieza",
        doctor: "Dr. Morales",
        office: "Box 2",
      }),
    ).toMatchObject({
      id: "A-9",
      date: "2026-03-05",
      time: "09:00",
      status: "cancelada",
      statusKind: "cancelled",
      treatment: "Limpieza",
      dentist: "Dr. Morales",
      office: "Box 2",
    });
    expect(
      appointment({
        id_cita: 4,
        fecha: "2026-03-05",
        hora: "10:00",
        estado: "pendiente",
        tratamiento: "Endodoncia",
        dentist: "Dra. Campos",
        consultorio: "Consultorio 3",
      }),
    ).toMatchObject({
      id: "4",
      status: "pendiente",
      statusKind: "scheduled",
      dentist: "Dra. Campos",
      office: "Consultorio 3",
    });
    expect(
      appointment({ id: 5, fecha: "2026-03-05", hora_inicio: "10:00", nombre_sillon: "Sillón 1" }).office,
    ).toBe("Sillón 1");
    // Dentalink's own cancellation flag wins over a state name that does not say so.
    expect(
      appointment({
        id: 6,
        fecha: "2026-03-05",
        hora_inicio: "10:00",
        estado_cita: "Baja",
        estado_anulacion: 1,
      }).statusKind,
    ).toBe("cancelled");
  });

  it("refuses an appointment without date or time", () => {
    expect(mappingError(() => appointment({ id: 1, fecha: "2026-03-05" })).body).toEqual({
      record: "appointment",
      missing: ["time"],
    });
    expect(mappingError(() => appointment({ hora: "10:00" })).body).toEqual({
      record: "appointment",
      missing: ["id", "date"],
    });
  });

  it("reads the family of clinic-named states", () => {
    expect(appointmentStateKind("No confirmado")).toBe("scheduled");
    expect(appointmentStateKind("Confirmado")).toBe("confirmed");
    expect(appointmentStateKind("Confirmada por WhatsApp")).toBe("confirmed");
    expect(appointmentStateKind("Anulado")).toBe("cancelled");
    expect(appointmentStateKind("Cancelada")).toBe("cancelled");
    expect(appointmentStateKind("Atendido")).toBe("completed");
    expect(appointmentStateKind("En box")).toBe("in_progress");
    expect(appointmentStateKind("En atención")).toBe("in_progress");
    expect(appointmentStateKind("No asiste")).toBe("no_show");
    expect(appointmentStateKind("Algo nuevo")).toBe("scheduled");
    expect(appointmentStateKind(null)).toBe("scheduled");
    expect(appointmentStateKind("Baja", true)).toBe("cancelled");
  });
});

describe("payments", () => {
  it("maps Dentalink's pago and the spec's variants, amounts as CLP integers", () => {
    expect(
      payment({
        id: 7001,
        fecha_recepcion: "2025-11-12",
        monto_pago: 45000,
        medio_pago: "Tarjeta de débito",
        concepto: "Limpieza",
        estado: "pagado",
      }),
    ).toEqual({
      id: "7001",
      date: "2025-11-12",
      amountClp: 45000,
      concept: "Limpieza",
      status: "pagado",
      method: "Tarjeta de débito",
    });
    expect(
      payment({
        payment_id: "P-1",
        date: "01/02/2026",
        amount: "$45.000",
        concept: "Consulta",
        status: "pendiente",
        method: "Efectivo",
      }),
    ).toEqual({
      id: "P-1",
      date: "2026-02-01",
      amountClp: 45000,
      concept: "Consulta",
      status: "pendiente",
      method: "Efectivo",
    });
    expect(payment({ id_pago: 3, monto: "12500.40", metodo: "Transferencia" })).toMatchObject({
      amountClp: 12500,
      method: "Transferencia",
    });
  });

  it("parses peso amounts as Chilean systems write them", () => {
    expect(parseClp(45000)).toBe(45000);
    expect(parseClp(45000.6)).toBe(45001);
    expect(parseClp("45000")).toBe(45000);
    expect(parseClp("45000.00")).toBe(45000);
    expect(parseClp("$45.000")).toBe(45000);
    expect(parseClp("$ 1.250.000")).toBe(1250000);
    expect(parseClp("45.000,50")).toBe(45001);
    expect(parseClp("45,5")).toBe(46);
    expect(parseClp("-$5.000")).toBe(-5000);
    expect(parseClp("45.0000")).toBeNull();
    expect(parseClp("gratis")).toBeNull();
    expect(parseClp(Number.NaN)).toBeNull();
  });

  it("refuses a payment without an amount", () => {
    expect(mappingError(() => payment({ id: 1, monto_pago: "mucho" })).body).toEqual({
      record: "payment",
      missing: ["amount"],
    });
  });
});

describe("treatments", () => {
  it("maps the spec's variants with progress defaulting to 0", () => {
    expect(
      treatment({
        treatment_id: "T-1",
        name: "Blanqueamiento",
        description: "Dos sesiones",
        status: "en_proceso",
        start_date: "2026-01-10",
        end_date: "10/02/2026",
      }),
    ).toEqual({
      id: "T-1",
      name: "Blanqueamiento",
      description: "Dos sesiones",
      status: "en_proceso",
      startDate: "2026-01-10",
      endDate: "2026-02-10",
      progress: 0,
      dentist: null,
      branch: null,
      totalClp: null,
      paidClp: null,
      balanceClp: null,
    });
    expect(treatment({ id: 2, nombre: "Ortodoncia", progreso: "40" }).progress).toBe(40);
    expect(treatment({ id: 3, nombre: "Implante", progress: 140 }).progress).toBe(100);
  });

  it("derives status and progress from Dentalink's finalizado and totals", () => {
    expect(
      treatment({
        id: 8001,
        nombre: "Ortodoncia",
        fecha: "2025-06-02",
        finalizado: 0,
        total: 1800000,
        total_realizado: 720000,
      }),
    ).toMatchObject({ status: "en_proceso", progress: 40, startDate: "2025-06-02" });
    expect(treatment({ id: 8002, nombre: "Limpieza", finalizado: 1 })).toMatchObject({
      status: "completado",
      progress: 100,
    });
  });

  it("reads a budget's balance from Dentalink's deuda", () => {
    expect(
      treatment({
        id: 8001,
        nombre: "Ortodoncia",
        total: 1800000,
        total_realizado: 720000,
        abonado: 600000,
        deuda: 120000,
      }),
    ).toMatchObject({ totalClp: 1_800_000, paidClp: 600_000, balanceClp: 120_000 });
    // deuda wins over the totals when both are sent; written as text the Chilean way, too.
    expect(
      treatment({ id: 1, nombre: "Corona", total: "420000", abonado: "0", deuda: "$105.000" }).balanceClp,
    ).toBe(105_000);
    expect(treatment({ id: 1, nombre: "Limpieza", total: 45000, abonado: 45000, deuda: 0 }).balanceClp).toBe(
      0,
    );
  });

  it("falls back to total − abonado without a deuda, and never owes less than nothing", () => {
    expect(treatment({ id: 1, nombre: "Implante", total: 950000, abonado: 200000 }).balanceClp).toBe(750_000);
    expect(treatment({ id: 1, nombre: "Implante", total: "950000.00", abonado: "200.000" }).balanceClp).toBe(
      750_000,
    );
    // Paid in advance beyond the budget: nothing owed.
    expect(treatment({ id: 1, nombre: "Blanqueamiento", total: 100000, abonado: 120000 }).balanceClp).toBe(0);
    expect(treatment({ id: 1, nombre: "Blanqueamiento", deuda: -20000 }).balanceClp).toBe(0);
  });

  it("leaves the balance unknown when Dentalink sends neither deuda nor both totals", () => {
    expect(treatment({ id: 1, nombre: "Control", total: 950000 }).balanceClp).toBeNull();
    expect(treatment({ id: 1, nombre: "Control", abonado: 10000 }).balanceClp).toBeNull();
    expect(
      treatment({ id: 1, nombre: "Control", deuda: "no informado", total: 10, abonado: 4 }).balanceClp,
    ).toBe(6);
    expect(treatment({ id: 1, nombre: "Control", deuda: null, abonado: null }).balanceClp).toBeNull();
  });

  it("refuses a treatment without a name", () => {
    expect(mappingError(() => treatment({ id: 1 })).body).toEqual({ record: "treatment", missing: ["name"] });
  });
});

describe("documents and x-rays", () => {
  it("maps documents with the spec's variants", () => {
    expect(
      mapDocument(
        file({
          document_id: 4,
          name: "Presupuesto",
          type: "pdf",
          date: "2026-01-02",
          download_url: "https://x.example/4",
        }),
      ),
    ).toEqual({
      id: "4",
      name: "Presupuesto",
      type: "pdf",
      date: "2026-01-02",
      url: "https://x.example/4",
    });
    expect(
      mapXray(
        file({
          xray_id: 9,
          nombre: "Panorámica",
          tipo: "Panorámica",
          fecha: "02/01/2026",
          image_url: "https://x.example/9",
        }),
      ),
    ).toEqual({
      id: "9",
      name: "Panorámica",
      type: "Panorámica",
      date: "2026-01-02",
      url: "https://x.example/9",
    });
  });

  it("tells x-rays from documents by type, category or name", () => {
    expect(isXrayFile(file({ id: 1, nombre: "a.jpg", categoria: "Radiografías" }))).toBe(true);
    expect(isXrayFile(file({ id: 1, nombre: "a.jpg", tipo: "RX" }))).toBe(true);
    expect(isXrayFile(file({ id: 1, nombre: "Periapical 16.jpg", tipo: "Imagen" }))).toBe(true);
    expect(isXrayFile(file({ id: 1, nombre: "a.jpg", type: "x-ray" }))).toBe(true);
    expect(isXrayFile(file({ xray_id: 1, nombre: "a.jpg" }))).toBe(true);
    expect(isXrayFile(file({ id: 1, nombre: "Consentimiento.pdf", tipo: "Documento" }))).toBe(false);
    const { documents, xrays } = mapPatientFiles([
      file({ id: 1, nombre: "Consentimiento.pdf", tipo: "Documento" }),
      file({ id: 2, nombre: "Panorámica.jpg", categoria: "Radiografías" }),
    ]);
    expect(documents.map((item) => item.id)).toEqual(["1"]);
    expect(xrays.map((item) => item.id)).toEqual(["2"]);
  });

  it("refuses a file without a name", () => {
    expect(mappingError(() => mapDocument(file({ id: 1, url: "https://x.example" }))).body).toEqual({
      record: "document",
      missing: ["name"],
    });
  });
});

describe("catalogues", () => {
  it("maps dentists without their personal data", () => {
    const dentist = mapDentist(
      dentalinkDentistRecordSchema.parse({
        id: 12,
        nombre: "Fernanda",
        apellidos: "Vidal",
        rut: "11111111-1",
        email: "f@clinica.example",
        celular: "+569",
        especialidad: "Ortodoncia",
        intervalo: "30",
        habilitado: 1,
      }),
    );
    expect(dentist).toEqual({
      id: "12",
      name: "Fernanda Vidal",
      specialty: "Ortodoncia",
      intervalMinutes: 30,
      active: true,
    });
    expect(
      mapDentist(
        dentalinkDentistRecordSchema.parse({ id: "dr-campos", name: "Isidora Campos", habilitado: "0" }),
      ),
    ).toMatchObject({
      id: "dr-campos",
      name: "Isidora Campos",
      active: false,
      intervalMinutes: null,
    });
  });

  it("maps branches", () => {
    expect(
      mapBranch(
        dentalinkBranchRecordSchema.parse({
          id: 1,
          nombre: "Providencia",
          direccion: "Av. 1",
          comuna: "Providencia",
          telefono: "+562",
          habilitada: 0,
        }),
      ),
    ).toEqual({
      id: "1",
      name: "Providencia",
      address: "Av. 1",
      city: "Providencia",
      phone: "+562",
      active: false,
    });
  });

  it("maps states and finds the cancelled one by flag or by name, never by id", () => {
    const byFlag = [
      state({ id: 7, nombre: "No confirmado" }),
      state({ id: 2, nombre: "Baja", anulacion: 1 }),
    ];
    expect(cancelledState(byFlag)?.id).toBe("2");
    const byName = [state({ id: 1, nombre: "Confirmado" }), state({ id: 3, nombre: "Anulada" })];
    expect(cancelledState(byName)).toMatchObject({ id: "3", kind: "cancelled", cancels: true });
    const disabled = [state({ id: 3, nombre: "Anulada", habilitado: 0 })];
    expect(cancelledState(disabled)).toBeNull();
    expect(mappingError(() => state({ nombre: "Anulado" })).body).toEqual({
      record: "appointment state",
      missing: ["id"],
    });
  });
});
