/**
 * The breach register's rules (Ley 19.628 as amended by Ley 21.719, art. 14 sexies; ADR 038): who is told, the text
 * they get, and the register's export for the Agency. Pure.
 *
 * Art. 14 sexies (as read in the consolidated text and commentaries, see the ADR): the controller reports a breach
 * to the Agency "por los medios más expeditos posibles y sin dilaciones indebidas", keeps a record of every breach
 * (its nature, effects, the people and data affected, the measures taken), and tells the people affected, in clear
 * and simple language, when the breach concerns sensitive data — health data always are (art. 16) — data of
 * children under 14, or economic, financial or banking data.
 */
import { CSV_BOM, csvCell, csvRow } from "./csv";

/** How many people one notice may reach at once (a larger breach is split in several sends). */
export const MAX_NOTICE_RECIPIENTS = 2_000;

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/**
 * The people to tell, as the admin pasted them: e-mail addresses separated by lines, commas, semicolons or spaces.
 * Answers the distinct addresses (lower case, in the order given) and what is not an address. Only e-mail: there is
 * no approved WhatsApp template for this notice, and a breach notice must not be a free-form message that the
 * 24-hour window may refuse.
 */
export function parseAffectedContacts(input: string): { emails: string[]; invalid: string[] } {
  const emails: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const piece of input.split(/[\s,;]+/)) {
    const value = piece.trim().replace(/^<|>$/g, "");
    if (!value) continue;
    if (!EMAIL.test(value) || value.length > 254) {
      invalid.push(value);
      continue;
    }
    const email = value.toLowerCase();
    if (seen.has(email)) continue;
    seen.add(email);
    emails.push(email);
  }
  return { emails, invalid };
}

/** Whether the people affected must be told (art. 14 sexies): health data are sensitive, so yes when involved. */
export function mustNotifyPeople(incident: { sensitiveData: boolean }): boolean {
  return incident.sensitiveData;
}

export interface IncidentNoticeFacts {
  clinicName: string;
  privacyEmail: string;
  phone: string;
  title: string;
  /** Already formatted dates (es-CL, clinic time). */
  occurred: string | null;
  discovered: string;
  dataCategories: string;
  measures: string;
}

export function incidentNoticeSubject(clinicShortName: string): string {
  return `Aviso de un incidente de seguridad con tus datos · ${clinicShortName}`;
}

/**
 * The text proposed to the admin, who reviews and may rewrite it before sending: what happened, which data, what we
 * did, what the person can do, whom to ask, and the right to complain to the Agency.
 */
export function defaultIncidentNotice(facts: IncidentNoticeFacts): string {
  const when = facts.occurred
    ? `El ${facts.occurred} ocurrió un incidente de seguridad que detectamos el ${facts.discovered}: ${facts.title}.`
    : `El ${facts.discovered} detectamos un incidente de seguridad: ${facts.title}.`;
  return [
    "Hola:",
    `Te escribimos porque ${facts.clinicName} sufrió un incidente de seguridad que afecta datos personales tuyos. ${when}`,
    `Datos afectados: ${facts.dataCategories}.`,
    facts.measures ? `Lo que hicimos: ${facts.measures}` : "",
    "Te recomendamos desconfiar de mensajes o llamadas que digan venir de la clínica y te pidan claves, códigos o pagos, y cambiar tu contraseña del portal si usas la misma en otros sitios.",
    `Si tienes preguntas, escríbenos a ${facts.privacyEmail} o llámanos al ${facts.phone}. También puedes presentar un reclamo ante la Agencia de Protección de Datos Personales.`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

export interface IncidentRegisterRow {
  id: string;
  title: string;
  description: string;
  occurred: string;
  discovered: string;
  dataCategories: string;
  sensitiveData: boolean;
  peopleAffected: number | null;
  affectedDescription: string;
  measures: string;
  agencyNotified: string;
  peopleNotified: string;
  noticesSent: number;
  status: string;
  recorded: string;
}

const REGISTER_COLUMNS = [
  "ID",
  "Incidente",
  "Descripción",
  "Ocurrió",
  "Descubierto",
  "Categorías de datos",
  "Datos de salud",
  "Personas afectadas",
  "Descripción de las personas afectadas",
  "Medidas adoptadas",
  "Aviso a la Agencia",
  "Aviso a las personas",
  "Avisos enviados",
  "Estado",
  "Registrado",
];

/** The register as CSV in the product's dialect (`domain/csv.ts`): what the Agency may ask for. */
export function incidentRegisterCsv(rows: readonly IncidentRegisterRow[]): string {
  return (
    CSV_BOM +
    csvRow(REGISTER_COLUMNS.map(csvCell)) +
    rows
      .map((row) =>
        csvRow(
          [
            row.id,
            row.title,
            row.description,
            row.occurred,
            row.discovered,
            row.dataCategories,
            row.sensitiveData ? "Sí" : "No",
            row.peopleAffected ?? "",
            row.affectedDescription,
            row.measures,
            row.agencyNotified,
            row.peopleNotified,
            row.noticesSent,
            row.status,
            row.recorded,
          ].map(csvCell),
        ),
      )
      .join("")
  );
}

export const incidentStatusLabels = { open: "Abierto", closed: "Cerrado" } as const;
