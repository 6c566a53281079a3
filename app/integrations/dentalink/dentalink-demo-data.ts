import {
  DEMO_FILES_BASE,
  DEMO_PORTAL_EMAIL,
  DEMO_RECORD_APPOINTMENTS,
  DEMO_RECORD_FILES,
  DEMO_RECORD_PATIENTS,
  DEMO_RECORD_PAYMENTS,
  DEMO_RECORD_TREATMENTS,
} from "./dentalink-demo-records";
import type { MockAppointment, MockPatient } from "./dentalink-mock-store";

/**
 * The Dentalink simulator's demo data (`dentalink-mock.ts`): fictional; the portal's demo dentists and patients
 * (DESIGN decision 7), with the RUT portal's demo records of `dentalink-demo-records.ts`. Node built-ins only (the
 * fake's runner loads this with Node's type stripping).
 */

/** Four dentists `dr-{name}`, named after the portal's demo dentists. */
export const MOCK_DENTISTS = [
  {
    id: "dr-morales",
    nombre: "Andrés",
    apellidos: "Morales",
    especialidad: "Odontología general",
    intervalo: 30,
    habilitado: 1,
    agenda_online: 1,
  },
  {
    id: "dr-vidal",
    nombre: "Fernanda",
    apellidos: "Vidal",
    especialidad: "Ortodoncia",
    intervalo: 30,
    habilitado: 1,
    agenda_online: 1,
  },
  {
    id: "dr-araya",
    nombre: "Tomás",
    apellidos: "Araya",
    especialidad: "Implantología",
    intervalo: 30,
    habilitado: 1,
    agenda_online: 1,
  },
  {
    id: "dr-campos",
    nombre: "Isidora",
    apellidos: "Campos",
    especialidad: "Endodoncia",
    intervalo: 30,
    habilitado: 1,
    agenda_online: 1,
  },
] as const;

export const MOCK_BRANCHES = [
  {
    id: 1,
    nombre: "Sucursal Providencia",
    direccion: "Av. Providencia 1234, oficina 501",
    comuna: "Providencia",
    ciudad: "Santiago",
    telefono: "+56 2 2345 6789",
    habilitada: 1,
  },
  {
    id: 2,
    nombre: "Sucursal Las Condes",
    direccion: "Av. Apoquindo 4500, piso 3",
    comuna: "Las Condes",
    ciudad: "Santiago",
    telefono: "+56 2 2345 6790",
    habilitada: 1,
  },
  {
    id: 3,
    nombre: "Sucursal Ñuñoa",
    direccion: "Av. Irarrázaval 2800",
    comuna: "Ñuñoa",
    ciudad: "Santiago",
    telefono: "+56 2 2345 6791",
    habilitada: 0,
  },
] as const;

/** Ids deliberately neither 1..n nor in order: clinics configure their own (docs/research/dentalink-whatsapp-chile.md §1.2). */
export const MOCK_APPOINTMENT_STATES = [
  {
    id: 7,
    nombre: "No confirmado",
    color: "#9e9e9e",
    reservado: 1,
    anulacion: 0,
    uso_interno: 0,
    habilitado: 1,
  },
  {
    id: 3,
    nombre: "Confirmado",
    color: "#4caf50",
    reservado: 1,
    anulacion: 0,
    uso_interno: 0,
    habilitado: 1,
  },
  { id: 12, nombre: "En box", color: "#ffc107", reservado: 1, anulacion: 0, uso_interno: 1, habilitado: 1 },
  { id: 5, nombre: "Atendido", color: "#2196f3", reservado: 1, anulacion: 0, uso_interno: 0, habilitado: 1 },
  { id: 1, nombre: "Anulado", color: "#f44336", reservado: 0, anulacion: 1, uso_interno: 0, habilitado: 1 },
  { id: 9, nombre: "No asiste", color: "#795548", reservado: 1, anulacion: 0, uso_interno: 0, habilitado: 1 },
] as const;

export const MOCK_PATIENTS: readonly MockPatient[] = [
  {
    id: 1001,
    rut: "12345678-5",
    nombre: "Catalina",
    apellidos: "Soto",
    // The RUT portal's demo record (ADR 021): only the demo account's e-mail on file, so the code goes by e-mail.
    email: DEMO_PORTAL_EMAIL,
    fecha_nacimiento: "14/03/1988",
    direccion: "Los Leones 1450, depto 42",
    ciudad: "Providencia",
  },
  {
    id: 1002,
    rut: "11111111-1",
    nombre: "Martín",
    apellidos: "Rivas",
    email: "martin.rivas@correo.example",
    celular: "+56988889999",
    fecha_nacimiento: "1975-07-02",
    ciudad: "Las Condes",
  },
  {
    id: 1003,
    rut: "9876543-3",
    nombre: "Valentina",
    apellidos: "Pérez Lagos",
    celular: "+56977770000",
    telefono: "+56222223333",
    fecha_nacimiento: "2001-11-30",
  },
  ...DEMO_RECORD_PATIENTS,
];

export const MOCK_APPOINTMENTS: readonly MockAppointment[] = [
  {
    id: 5001,
    id_paciente: 1001,
    id_dentista: "dr-morales",
    id_sucursal: 1,
    id_estado: 5,
    fecha: "2025-11-12",
    hora_inicio: "10:00",
    duracion: 30,
    nombre_tratamiento: "Limpieza dental",
  },
  {
    id: 5002,
    id_paciente: 1001,
    id_dentista: "dr-vidal",
    id_sucursal: 1,
    id_estado: 3,
    fecha: "2026-09-15",
    hora_inicio: "09:30",
    duracion: 30,
    nombre_tratamiento: "Control de ortodoncia",
  },
  {
    id: 5003,
    id_paciente: 1001,
    id_dentista: "dr-vidal",
    id_sucursal: 2,
    id_estado: 7,
    fecha: "2026-10-20",
    hora_inicio: "11:00",
    duracion: 30,
    nombre_tratamiento: "Control de ortodoncia",
  },
  {
    id: 5004,
    id_paciente: 1002,
    id_dentista: "dr-araya",
    id_sucursal: 2,
    id_estado: 1,
    fecha: "2026-02-03",
    hora_inicio: "15:00",
    duracion: 60,
    nombre_tratamiento: "Evaluación de implantes",
    comentarios: "Anulada por el paciente",
  },
  ...DEMO_RECORD_APPOINTMENTS,
];

const FILES_BASE = DEMO_FILES_BASE;

/** Read-only per-patient lists (nothing in the portal writes them). */
export const MOCK_PAYMENTS = [
  {
    id: 7001,
    id_paciente: 1001,
    fecha_recepcion: "2025-11-12",
    monto_pago: 45000,
    medio_pago: "Tarjeta de débito",
    concepto: "Limpieza dental",
    estado: "pagado",
  },
  {
    id: 7002,
    id_paciente: 1001,
    fecha_recepcion: "2025-06-02",
    monto_pago: 360000,
    medio_pago: "Transferencia",
    concepto: "Ortodoncia: pie",
    estado: "pagado",
  },
  {
    id: 7003,
    id_paciente: 1001,
    fecha_recepcion: "2026-07-05",
    monto_pago: 120000,
    medio_pago: "Tarjeta de crédito",
    concepto: "Ortodoncia: cuota 4",
    estado: "pendiente",
  },
  {
    id: 7004,
    id_paciente: 1002,
    fecha_recepcion: "2025-09-18",
    monto_pago: 35000,
    medio_pago: "Efectivo",
    concepto: "Consulta de evaluación",
    estado: "pagado",
  },
  ...DEMO_RECORD_PAYMENTS,
] as const;

export const MOCK_TREATMENTS = [
  {
    id: 8001,
    id_paciente: 1001,
    nombre: "Ortodoncia con brackets",
    descripcion: "Brackets metálicos, controles mensuales",
    fecha: "2025-06-02",
    finalizado: 0,
    total: 1800000,
    total_realizado: 720000,
    // The pie and three monthly instalments are paid; the fourth (the pending payment above) is owed: the demo
    // budget with a balance that Mi Ficha offers to pay online.
    abonado: 600000,
    deuda: 120000,
    nombre_dentista: "Fernanda Vidal",
    nombre_sucursal: "Sucursal Providencia",
  },
  {
    id: 8002,
    id_paciente: 1001,
    nombre: "Limpieza dental",
    descripcion: "Destartraje y pulido",
    fecha: "2025-11-12",
    finalizado: 1,
    total: 45000,
    total_realizado: 45000,
    abonado: 45000,
    deuda: 0,
    nombre_dentista: "Andrés Morales",
    nombre_sucursal: "Sucursal Providencia",
  },
  {
    id: 8003,
    id_paciente: 1002,
    nombre: "Implante unitario",
    descripcion: "Pieza 36",
    fecha: "2025-09-18",
    finalizado: 0,
    total: 950000,
    total_realizado: 0,
    abonado: 0,
    deuda: 0,
    nombre_dentista: "Tomás Araya",
    nombre_sucursal: "Sucursal Las Condes",
  },
  ...DEMO_RECORD_TREATMENTS,
] as const;

export const MOCK_FILES = [
  {
    id: 9001,
    id_paciente: 1001,
    nombre: "Consentimiento informado ortodoncia.pdf",
    tipo: "Documento",
    categoria: "Consentimientos",
    fecha: "02/06/2025",
    url: `${FILES_BASE}/9001.pdf`,
  },
  {
    id: 9002,
    id_paciente: 1001,
    nombre: "Presupuesto ortodoncia.pdf",
    tipo: "Documento",
    categoria: "Presupuestos",
    fecha: "2025-05-28",
    url: `${FILES_BASE}/9002.pdf`,
  },
  {
    id: 9003,
    id_paciente: 1001,
    nombre: "Panorámica inicial.png",
    tipo: "Imagen",
    categoria: "Radiografías",
    fecha: "2025-05-28",
    url: `${FILES_BASE}/9003.png`,
  },
  {
    id: 9004,
    id_paciente: 1001,
    nombre: "Periapical pieza 16.png",
    tipo: "Radiografía",
    categoria: "Radiografías",
    fecha: "2025-11-12",
    url: `${FILES_BASE}/9004.png`,
  },
  {
    id: 9005,
    id_paciente: 1002,
    nombre: "Cone beam maxilar inferior.dcm",
    tipo: "Imagen",
    categoria: "Radiografías",
    fecha: "2025-09-18",
    url: `${FILES_BASE}/9005.dcm`,
  },
  ...DEMO_RECORD_FILES,
] as const;
