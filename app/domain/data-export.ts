/**
 * The export of a person's data (access and portability, Ley 19.628 as amended by Ley 21.719, arts. 5 and 9;
 * ADR 037): how often it may be asked, how long the file is kept, what its progress reads, and what the files
 * inside the ZIP say — the machine-readable `datos.json`, the Spanish summary the PDF prints and `LEEME.txt`.
 * Pure: the rows come in already read (`features/privacy/subject-data.server.ts`), the PDF is drawn elsewhere.
 */

import { appointmentStatusLabel } from "./appointment-status";
import { clinicDate } from "./clinic-time";
import type { DataExportStatus, PrivacyRight } from "./privacy";
import { formatCLP, formatClinicDateTime, formatDate } from "./format";
import { treatmentLabels } from "./lead-labels";
import { chargeKindLabel, chargeStatusLabel, paymentStatusLabel, refundStatusLabel } from "./payment-labels";
import {
  personalTables,
  retainedUntilDate,
  retentionBases,
  type PersonalTable,
  type PersonalTableName,
} from "./privacy-data-map";

/** Days a built export can be downloaded; then its file is dropped. */
export const DATA_EXPORT_TTL_DAYS = 7;
/** Exports a person may ask for in any 24 hours (the law makes access free at least once a quarter). */
export const DATA_EXPORTS_PER_DAY = 3;
/** How long a build holds its claim without a sign of life; a crashed build is taken again after it. */
export const DATA_EXPORT_LEASE_MS = 5 * 60_000;
/** Builds tried before an export is marked failed. */
export const DATA_EXPORT_MAX_ATTEMPTS = 3;
/** An export's rows are read table by table up to this progress; the rest is writing the files. */
const READING_SHARE = 90;

export const DATA_EXPORT_LIMIT_MESSAGE = `Ya pediste ${DATA_EXPORTS_PER_DAY} descargas de tus datos en las últimas 24 horas. Puedes volver a pedirla mañana; mientras tanto, las descargas listas siguen disponibles.`;
export const DATA_EXPORT_EXPIRED_MESSAGE = `Esta descarga venció: los archivos se guardan ${DATA_EXPORT_TTL_DAYS} días. Pide una nueva con 'Descargar mis datos'.`;
export const DATA_EXPORT_NOT_READY_MESSAGE = "Esta descarga todavía se está preparando.";
export const DATA_EXPORT_NOT_FOUND_MESSAGE = "No encontramos esa descarga.";
export const DATA_EXPORT_FAILED_MESSAGE =
  "No pudimos preparar esta descarga. Pide una nueva; si vuelve a fallar, escríbenos.";

export const dataExportStatusLabels: Readonly<Record<DataExportStatus, string>> = {
  queued: "En espera",
  running: "Preparando",
  ready: "Lista para descargar",
  failed: "No se pudo preparar",
  expired: "Vencida",
};

export const DATA_EXPORT_QUEUED_STEP = "En espera de comenzar";
export const DATA_EXPORT_PACKING_STEP = "Armando el archivo ZIP";

/** Progress after `done` of `total` tables have been read: 0–90, the rest is for writing the files. */
export function exportProgress(done: number, total: number): number {
  if (total <= 0) return READING_SHARE;
  return Math.max(0, Math.min(READING_SHARE, Math.floor((done / total) * READING_SHARE)));
}

/** Whether another export may be asked, given how many were asked in the last 24 hours. */
export function exportLimitReached(askedInLastDay: number): boolean {
  return askedInLastDay >= DATA_EXPORTS_PER_DAY;
}

export function exportExpiresAt(readyAt: Date): Date {
  return new Date(readyAt.getTime() + DATA_EXPORT_TTL_DAYS * 24 * 60 * 60_000);
}

/** `datos-2026-03-14.zip`: the date (Santiago) the export was built. */
export function exportFileName(builtAt: Date): string {
  return `datos-${clinicDate(builtAt)}.zip`;
}

/** A file's size in words: "850 bytes", "12 KB", "1,4 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString("es-CL", { maximumFractionDigits: 1 })} MB`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading stored values

type Row = Record<string, unknown>;

/** A stored instant: a Date, or the text PostgreSQL drivers give ("2026-03-14 12:00:00.5+00"). */
export function toInstant(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== "string" || value === "") return null;
  const iso = value.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00");
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  return String(value).trim();
}

function amount(value: unknown): string {
  const n = Number(value);
  return Number.isFinite(n) ? formatCLP(n) : "";
}

function when(value: unknown): string {
  const instant = toInstant(value);
  return instant ? formatClinicDateTime(instant) : "fecha desconocida";
}

function day(value: unknown): string {
  const instant = toInstant(value);
  return instant ? formatDate(clinicDate(instant)) : "fecha desconocida";
}

const HEX = "0123456789abcdef";

/** JSON-safe values: instants as ISO 8601 (UTC), bytes as hex, big integers as text. */
export function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) {
    let out = "";
    for (const byte of value) out += HEX[byte >> 4]! + HEX[byte & 15]!;
    return out;
  }
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Row).map(([key, inner]) => [key, jsonValue(inner)]));
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// The files

export interface ExportTable {
  table: PersonalTableName;
  label: string;
  rows: Row[];
}

export interface ExportInput {
  clinic: { name: string; privacyEmail: string; siteUrl: string };
  person: { userId: string; name: string; email: string };
  generatedAt: Date;
  tables: ExportTable[];
  /** Where the account holder's Mis Datos page is (`/paciente/datos` or `/cuenta/datos`). */
  myDataPath: string;
}

const LAW =
  "Ley N° 19.628 sobre protección de la vida privada, modificada por la Ley N° 21.719: derecho de acceso (art. 5) y derecho a la portabilidad (art. 9).";

const treatmentWords: Record<PersonalTable["erasure"], string> = {
  erase: "se elimina",
  anonymise: "se anonimiza (se quitan los datos que te identifican)",
  retain: "se conserva por obligación legal, bloqueado",
};

/**
 * `datos.json`: who, when, under which law, and every table's rows (secrets already left out) with the table's
 * Spanish label and what an erasure would do to them.
 */
export function exportDocument(input: ExportInput): Record<string, unknown> {
  return {
    formato: "clinica-datos-personales/1",
    generado: input.generatedAt.toISOString(),
    zonaHoraria: "Las fechas están en UTC (ISO 8601); el resumen en PDF las muestra en hora de Santiago.",
    ley: LAW,
    responsable: {
      nombre: input.clinic.name,
      contactoPrivacidad: input.clinic.privacyEmail,
      sitio: input.clinic.siteUrl,
    },
    titular: { id: input.person.userId, nombre: input.person.name, correo: input.person.email },
    nota: "Incluye cada fila que la clínica guarda sobre ti en cada tabla. No incluye secretos (contraseñas, códigos, tokens de acceso) ni el archivo de esta misma descarga.",
    tablas: input.tables.map((entry) => {
      const map: PersonalTable = personalTables[entry.table];
      return {
        tabla: entry.table,
        categoria: entry.label,
        filas: entry.rows.length,
        alSuprimir: treatmentWords[map.erasure],
        ...(map.retention ? { motivoConservacion: retentionBases[map.retention.basis].reason } : {}),
        datos: entry.rows.map((row) => jsonValue(row)),
      };
    }),
  };
}

export interface SummarySection {
  heading: string;
  paragraphs: string[];
  items: string[];
}

export interface ExportSummary {
  title: string;
  sections: SummarySection[];
}

/** How many key rows of a table the summary spells out; the rest are in `datos.json`. */
export const SUMMARY_ROWS_PER_TABLE = 8;

const consentPurposeWords: Record<string, string> = {
  datos_contacto: "Uso de tus datos de contacto para responder tu solicitud",
  recordatorios_whatsapp: "Recordatorios por WhatsApp",
  marketing: "Mensajes de marketing",
  chat_ia: "Aviso del chat con asistente de inteligencia artificial",
};

export const privacyRightWords: Record<PrivacyRight, string> = {
  acceso: "Acceso",
  portabilidad: "Portabilidad",
  rectificacion: "Rectificación",
  supresion: "Supresión",
  oposicion: "Oposición",
  decisiones_automatizadas: "Oposición a decisiones automatizadas",
  bloqueo: "Bloqueo",
};

const requestStatusWords: Record<string, string> = {
  unverified: "sin verificar",
  received: "recibida",
  in_progress: "en curso",
  approved: "aprobada",
  partially_approved: "aprobada en parte",
  refused: "rechazada",
  withdrawn: "retirada",
  expired: "vencida",
};

/** The key rows of a table in plain words; tables without one get the count and the dates only. */
const describers: Partial<Record<PersonalTableName, (row: Row) => string>> = {
  users: (row) =>
    [
      `Nombre: ${[text(row.first_name), text(row.last_name)].filter(Boolean).join(" ")}`,
      `correo: ${text(row.email)}`,
      row.phone ? `teléfono: ${text(row.phone)}` : "",
      row.rut ? `RUT: ${text(row.rut)}` : "",
      row.address ? `dirección: ${text(row.address)}` : "",
      row.emergency_contact ? `contacto de emergencia: ${text(row.emergency_contact)}` : "",
      `cuenta creada el ${day(row.created_at)}`,
    ]
      .filter(Boolean)
      .join("; "),
  sessions: (row) => `Sesión iniciada el ${when(row.created_at)}`,
  appointments: (row) => `Cita del ${when(row.starts_at)}: ${appointmentStatusLabel(text(row.status))}`,
  charges: (row) =>
    `${text(row.concept) || chargeKindLabel(text(row.kind))}: ${amount(row.amount)} (${chargeStatusLabel(text(row.status)).label.toLowerCase()}), del ${day(row.created_at)}`,
  payments: (row) =>
    `Pago de ${amount(row.amount)} el ${when(row.created_at)}: ${paymentStatusLabel(text(row.status)).label.toLowerCase()} (orden ${text(row.buy_order)})`,
  payment_refunds: (row) =>
    `Devolución de ${amount(row.amount)} del ${day(row.created_at)}: ${refundStatusLabel(text(row.status)).label.toLowerCase()}`,
  leads: (row) => {
    const treatment = treatmentLabels[text(row.treatment) as keyof typeof treatmentLabels];
    return `Solicitud de contacto del ${when(row.created_at)}${treatment ? ` sobre ${treatment}` : ""}`;
  },
  consents: (row) => {
    const purpose = consentPurposeWords[text(row.purpose)] ?? text(row.purpose);
    const withdrawn = toInstant(row.withdrawn_at);
    return `${purpose}: aceptado el ${when(row.given_at)} (texto ${text(row.text_version)})${
      withdrawn ? `, retirado el ${formatClinicDateTime(withdrawn)}` : ", vigente"
    }`;
  },
  clinical_record_access: (row) =>
    `${when(row.created_at)}: ${text(row.actor_name) || "alguien del equipo"} (${text(row.actor_role)}) consultó tu ficha${
      row.reason ? ` con el motivo «${text(row.reason)}»` : ""
    }`,
  privacy_requests: (row) => {
    const right = privacyRightWords[text(row.right) as PrivacyRight] ?? text(row.right);
    return `Solicitud de ${right.toLowerCase()} del ${day(row.created_at)}: ${requestStatusWords[text(row.status)] ?? text(row.status)}`;
  },
  callback_requests: (row) => `Pediste que te llamáramos el ${when(row.created_at)}`,
  data_exports: (row) => `Descarga de tus datos pedida el ${when(row.created_at)}`,
};

/** "Del 3 de marzo de 2026 al 14 de marzo de 2026", from the rows' dates. */
function dateRange(rows: Row[]): string | null {
  const instants = rows
    .map((row) => toInstant(row.created_at ?? row.at ?? row.given_at ?? row.starts_at))
    .filter((instant): instant is Date => instant !== null)
    .map((instant) => instant.getTime());
  if (instants.length === 0) return null;
  const first = formatDate(clinicDate(new Date(Math.min(...instants))));
  const last = formatDate(clinicDate(new Date(Math.max(...instants))));
  return first === last ? `Del ${first}.` : `Del ${first} al ${last}.`;
}

function rowsWord(n: number): string {
  return n === 1 ? "1 registro" : `${n} registros`;
}

/** The latest date of a retained table's rows its term runs from, or null. */
function lastTermDate(entry: PersonalTable, rows: Row[]): Date | null {
  if (!entry.retention) return null;
  const instants = rows
    .map((row) => toInstant(row[entry.retention!.from]))
    .filter((instant): instant is Date => instant !== null);
  if (instants.length === 0) return null;
  return new Date(Math.max(...instants.map((instant) => instant.getTime())));
}

/** The readable summary in Spanish, section by section (the PDF prints it as it is). */
export function exportSummary(input: ExportInput): ExportSummary {
  const withRows = input.tables.filter((entry) => entry.rows.length > 0);
  const held: SummarySection[] = withRows.map((entry) => {
    const map: PersonalTable = personalTables[entry.table];
    const describe = describers[entry.table];
    const items = describe ? entry.rows.slice(0, SUMMARY_ROWS_PER_TABLE).map(describe) : [];
    const more = describe ? entry.rows.length - items.length : 0;
    const paragraphs = [
      [rowsWord(entry.rows.length) + ".", describe ? null : dateRange(entry.rows)].filter(Boolean).join(" "),
    ];
    if (more > 0) paragraphs.push(`Y ${rowsWord(more)} más, en datos.json.`);
    if (map.erasure === "retain") paragraphs.push("Se conserva por obligación legal (ver más abajo).");
    return { heading: entry.label, paragraphs, items };
  });

  const retained = withRows.flatMap((entry) => {
    const map: PersonalTable = personalTables[entry.table];
    if (map.erasure !== "retain" || !map.retention) return [];
    const last = lastTermDate(map, entry.rows) ?? input.generatedAt;
    const until = formatDate(retainedUntilDate(map.retention.basis, last));
    return [`${entry.label}: ${retentionBases[map.retention.basis].reason} Se conserva hasta el ${until}.`];
  });

  return {
    title: "Tus datos personales",
    sections: [
      {
        heading: "Quién y cuándo",
        paragraphs: [
          `Titular: ${input.person.name} (${input.person.email}).`,
          `Generado el ${formatClinicDateTime(input.generatedAt)} (hora de Santiago de Chile) por ${input.clinic.name}.`,
          "Responde a tus derechos de acceso (art. 5) y de portabilidad (art. 9) de la Ley N° 19.628, modificada por la Ley N° 21.719.",
          "Este resumen muestra lo principal; el detalle completo, fila por fila, está en datos.json, en un formato que puedes llevar a otro servicio.",
        ],
        items: [],
      },
      {
        heading: "Qué datos tiene la clínica sobre ti",
        paragraphs: [
          withRows.length === 0
            ? "La clínica no guarda datos sobre ti, aparte de esta descarga."
            : `Encontramos datos tuyos en ${withRows.length} ${withRows.length === 1 ? "categoría" : "categorías"}:`,
        ],
        items: withRows.map((entry) => `${entry.label}: ${rowsWord(entry.rows.length)}`),
      },
      ...held,
      {
        heading: "Qué se conserva por obligación legal y por qué",
        paragraphs: [
          retained.length === 0
            ? "Nada de lo que la clínica guarda sobre ti está sujeto a una obligación legal de conservación: si pides la supresión, se elimina o se anonimiza todo."
            : "Si pides la supresión de tus datos, esto se conserva (bloqueado: no se usa para nada más) hasta que venza el plazo legal, y luego se elimina:",
        ],
        items: retained,
      },
      {
        heading: "Tus derechos y cómo ejercerlos",
        paragraphs: [
          "Ejercer estos derechos es gratuito. La clínica responde dentro de 30 días corridos, plazo que puede prorrogarse una vez por otros 30 avisándote el motivo.",
        ],
        items: [
          "Acceso: saber qué datos tuyos guarda la clínica (este archivo).",
          "Portabilidad: recibirlos en un formato estructurado y de uso común (datos.json).",
          "Rectificación: corregir datos inexactos o incompletos.",
          "Supresión: pedir que se eliminen tus datos, salvo los que la ley obliga a conservar.",
          "Oposición: oponerte a un uso de tus datos, como el marketing o la priorización automática de tus solicitudes de contacto (perfilamiento).",
          "Bloqueo: pedir que tus datos no se usen mientras se decide tu solicitud.",
          `Cómo: en tu cuenta, en 'Mis Datos' (${input.clinic.siteUrl}${input.myDataPath}); sin cuenta, en ${input.clinic.siteUrl}/eliminar-datos; o escribiendo a ${input.clinic.privacyEmail}.`,
          "Si no quedas conforme con la respuesta, puedes reclamar ante la Agencia de Protección de Datos Personales.",
        ],
      },
    ],
  };
}

/** `LEEME.txt`: what the ZIP holds and how long it is kept. */
export function exportReadme(input: ExportInput): string {
  return [
    `Tus datos personales en ${input.clinic.name}`,
    `Generado el ${formatClinicDateTime(input.generatedAt)} (hora de Santiago de Chile) para ${input.person.email}.`,
    "",
    "Este archivo contiene:",
    "- datos.json: cada fila que la clínica guarda sobre ti, tabla por tabla, en formato JSON (UTF-8), con el nombre de cada categoría en español. Sirve para llevar tus datos a otro servicio (portabilidad).",
    "- resumen.pdf: un resumen legible de lo mismo, con lo que se conserva por ley y tus derechos.",
    "",
    "No incluye secretos (contraseñas, códigos de verificación, tokens de acceso).",
    `La descarga queda disponible ${DATA_EXPORT_TTL_DAYS} días en 'Mis Datos'; después se borra.`,
    `Consultas: ${input.clinic.privacyEmail}.`,
    "",
  ].join("\r\n");
}
