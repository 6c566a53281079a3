import { crc32, deflateSync } from "node:zlib";

/**
 * The demo clinical records of the RUT portal (ADR 021), served by the mock and the fake beside the other demo
 * data of `dentalink-demo-data.ts`:
 * - **12.345.678-5** (patient 1001, the demo patient Catalina Soto): only the demo account's e-mail on file, so the
 *   one-time code arrives by e-mail in the demo outbox (`/dev/correos`); her lists are in `dentalink-demo-data.ts`;
 * - **12.678.579-8** (patient 1000, below): only a mobile on file, so the code goes by WhatsApp.
 * Every list has at least two items, and the files are real small documents (PDF) and images (PNG) built here.
 *
 * Ids stay below the simulator's counters (patients 1000, appointments 49xx), so patients and appointments created
 * in the mock keep their numbers. Node built-ins only (the fake's runner loads this with Node's type stripping).
 */

export const DEMO_PORTAL_EMAIL = "paciente@clinica.example";

/** Where the mock's files live (no such host: the portal serves them from here in mock mode, never by URL). */
export const DEMO_FILES_BASE = "https://archivos.dentalink.invalid/demo";

export const DEMO_RECORD_PATIENTS = [
  {
    id: 1000,
    rut: "12678579-8",
    nombre: "Jorge",
    apellidos: "Muñoz Araneda",
    celular: "+56961234567",
    fecha_nacimiento: "1962-04-09",
    direccion: "Av. Grecia 1820",
    ciudad: "Ñuñoa",
  },
] as const;

export const DEMO_RECORD_APPOINTMENTS = [
  {
    id: 4901,
    id_paciente: 1000,
    id_dentista: "dr-campos",
    id_sucursal: 1,
    id_estado: 5,
    fecha: "2025-10-07",
    hora_inicio: "16:00",
    duracion: 60,
    nombre_tratamiento: "Endodoncia pieza 46",
  },
  {
    id: 4902,
    id_paciente: 1000,
    id_dentista: "dr-morales",
    id_sucursal: 2,
    id_estado: 7,
    fecha: "2026-12-14",
    hora_inicio: "10:30",
    duracion: 30,
    nombre_tratamiento: "Control",
  },
] as const;

export const DEMO_RECORD_PAYMENTS = [
  {
    id: 7101,
    id_paciente: 1000,
    fecha_recepcion: "2025-10-07",
    monto_pago: 240000,
    medio_pago: "Tarjeta de crédito",
    concepto: "Endodoncia pieza 46",
    estado: "pagado",
  },
  {
    id: 7102,
    id_paciente: 1000,
    fecha_recepcion: "2025-11-30",
    monto_pago: 85000,
    medio_pago: "Transferencia",
    concepto: "Corona provisoria",
    estado: "vencido",
  },
] as const;

export const DEMO_RECORD_TREATMENTS = [
  {
    id: 8101,
    id_paciente: 1000,
    nombre: "Endodoncia",
    descripcion: "Pieza 46, dos sesiones",
    fecha: "2025-09-30",
    finalizado: 1,
    total: 240000,
    total_realizado: 240000,
    abonado: 240000,
    deuda: 0,
    nombre_dentista: "Isidora Campos",
    nombre_sucursal: "Sucursal Providencia",
  },
  {
    id: 8102,
    id_paciente: 1000,
    nombre: "Corona de cerámica",
    descripcion: "Pieza 46",
    fecha: "2025-11-30",
    finalizado: 0,
    total: 420000,
    total_realizado: 105000,
    // The provisional crown is done and unpaid (its payment above is overdue): a balance to pay online.
    abonado: 0,
    deuda: 105000,
    nombre_dentista: "Andrés Morales",
    nombre_sucursal: "Sucursal Las Condes",
  },
] as const;

export const DEMO_RECORD_FILES = [
  {
    id: 9101,
    id_paciente: 1000,
    nombre: "Consentimiento informado endodoncia.pdf",
    tipo: "Documento",
    categoria: "Consentimientos",
    fecha: "2025-09-30",
    url: `${DEMO_FILES_BASE}/9101.pdf`,
  },
  {
    id: 9102,
    id_paciente: 1000,
    nombre: "Presupuesto corona.pdf",
    tipo: "Documento",
    categoria: "Presupuestos",
    fecha: "2025-11-30",
    url: `${DEMO_FILES_BASE}/9102.pdf`,
  },
  {
    id: 9103,
    id_paciente: 1000,
    nombre: "Periapical pieza 46.png",
    tipo: "Radiografía",
    categoria: "Radiografías",
    fecha: "2025-09-30",
    url: `${DEMO_FILES_BASE}/9103.png`,
  },
  {
    id: 9104,
    id_paciente: 1000,
    nombre: "Periapical control pieza 46.png",
    tipo: "Radiografía",
    categoria: "Radiografías",
    fecha: "2025-10-07",
    url: `${DEMO_FILES_BASE}/9104.png`,
  },
] as const;

// ---- Real small files -------------------------------------------------------------------------------------------

/** A one-page PDF with a few lines of Helvetica text (WinAnsi: Spanish accents are single bytes). */
function pdfText(value: string): string {
  return value.replace(/[\\()]/g, (char) => `\\${char}`);
}

export function demoPdf(title: string, lines: readonly string[]): Uint8Array {
  const text = [
    "BT /F1 16 Tf 56 780 Td",
    `(${pdfText(title)}) Tj`,
    "/F1 11 Tf 0 -28 Td",
    ...lines.map((line) => `(${pdfText(line)}) Tj 0 -16 Td`),
    "ET",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(text, "latin1")} >>\nstream\n${text}\nendstream`,
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, "latin1"));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A small greyscale PNG that looks like a radiograph: a light tooth-like shape on a dark field. */
export function demoPng(width = 96, height = 64, seed = 1): Uint8Array {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width + 1);
    for (let x = 0; x < width; x++) {
      const dx = (x - width / 2) / (width / 3);
      const dy = (y - height / 2) / (height / 2.4);
      const crown = Math.max(0, 1 - (dx * dx + dy * dy));
      const grain = ((x * 7 + y * 13 + seed * 17) % 11) / 11;
      row[x + 1] = Math.round(30 + crown * 190 + grain * 20);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk("IHDR", header),
      pngChunk("IDAT", deflateSync(Buffer.concat(rows))),
      pngChunk("IEND", Buffer.alloc(0)),
    ]),
  );
}

export interface DemoFile {
  contentType: "application/pdf" | "image/png";
  bytes: Uint8Array;
}

const documentLines = (patient: string, what: string) => [
  `Paciente: ${patient}`,
  what,
  "Documento de demostración: datos ficticios.",
  "Río Clínica · Av. Providencia 1234, Providencia, Santiago",
];

const pdf = (title: string, patient: string, what: string): DemoFile => ({
  contentType: "application/pdf",
  bytes: demoPdf(title, documentLines(patient, what)),
});

const png = (seed: number): DemoFile => ({ contentType: "image/png", bytes: demoPng(96, 64, seed) });

/** The bytes behind the demo patients' file URLs. */
export const DEMO_FILE_CONTENTS: ReadonlyMap<string, DemoFile> = new Map([
  [
    `${DEMO_FILES_BASE}/9001.pdf`,
    pdf("Consentimiento informado: ortodoncia", "Catalina Soto", "Tratamiento: ortodoncia con brackets."),
  ],
  [
    `${DEMO_FILES_BASE}/9002.pdf`,
    pdf("Presupuesto: ortodoncia", "Catalina Soto", "Total del plan: $1.800.000."),
  ],
  [`${DEMO_FILES_BASE}/9003.png`, png(3)],
  [`${DEMO_FILES_BASE}/9004.png`, png(4)],
  [
    `${DEMO_FILES_BASE}/9101.pdf`,
    pdf("Consentimiento informado: endodoncia", "Jorge Muñoz Araneda", "Tratamiento: endodoncia pieza 46."),
  ],
  [
    `${DEMO_FILES_BASE}/9102.pdf`,
    pdf("Presupuesto: corona", "Jorge Muñoz Araneda", "Corona de cerámica pieza 46: $420.000."),
  ],
  [`${DEMO_FILES_BASE}/9103.png`, png(6)],
  [`${DEMO_FILES_BASE}/9104.png`, png(7)],
]);
