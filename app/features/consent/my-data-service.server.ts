import type { Database } from "~/db/client.server";
import { consentState } from "~/domain/consent-rules";
import { consentTextOf, consentTexts, currentConsentText } from "~/domain/consent-texts";
import { formatClinicDateTime } from "~/domain/format";
import { consentPurposes, type ConsentChannel, type ConsentPurpose } from "~/domain/privacy";
import { AppError } from "~/lib/base/errors";
import {
  accountSubject,
  giveConsent,
  ledgerEntries,
  listConsents,
  ownConsent,
  withdrawConsent,
  type ConsentRow,
} from "./consent-service.server";
import type {
  ConsentEntryDto,
  ConsentPurposeDto,
  ConsentSectionDto,
  ProfilingSectionDto,
} from "./my-data-dto";
import type { MyDataAction } from "./my-data-schema";
import { objectToProfiling, profilingObjected, withdrawProfilingObjection } from "./profiling-service.server";
import type { DataSubject } from "./subject";

/** Mis Datos (`/paciente/datos`, `/cuenta/datos`; ADR 037): the session's own consents and profiling objection. */

const channelLabels: Record<ConsentChannel, string> = {
  formulario_web: "Formulario del sitio web",
  asistente: "Asistente del sitio web",
  registro: "Registro de la cuenta",
  perfil: "Mi Perfil",
  mis_datos: "Mis Datos",
  chat: "Chat del sitio web",
  whatsapp: "Mensaje por WhatsApp",
  clinica: "En la clínica",
  solicitud: "Solicitud de derechos",
  migracion: "Registro anterior",
};

const stateLabels = {
  vigente: "Otorgado",
  retirado: "Retirado",
  sin_consentimiento: "No otorgado",
} as const;

const NEEDS_PHONE = "Para recibir mensajes por WhatsApp agrega tu teléfono móvil en Mi Perfil.";

function channelLabel(channel: string | null): string | null {
  if (!channel) return null;
  return channelLabels[channel as ConsentChannel] ?? channel;
}

function entryDto(row: ConsentRow): ConsentEntryDto {
  const purpose = row.purpose as ConsentPurpose;
  return {
    id: row.id,
    version: row.textVersion,
    text: consentTextOf(purpose, row.textVersion)?.text ?? "(texto no disponible)",
    givenAtLabel: formatClinicDateTime(row.givenAt),
    channelLabel: channelLabel(row.channel) ?? row.channel,
    withdrawnAtLabel: row.withdrawnAt ? formatClinicDateTime(row.withdrawnAt) : null,
    withdrawnChannelLabel: channelLabel(row.withdrawnChannel),
    stateLabel: row.withdrawnAt ? "Retirado" : "Vigente",
  };
}

/**
 * 'Mis consentimientos': every purpose the person has a ledger row for, and always the WhatsApp one (an account's
 * own choice), each with its switch and its rows. Marketing is listed only once given: the clinic sends none today.
 */
export async function consentSection(db: Database, subject: DataSubject, now = new Date()) {
  const rows = await listConsents(db, subject);
  const entries = ledgerEntries(rows);
  const hasPhone = subject.phones.length > 0;
  const purposes: ConsentPurposeDto[] = consentPurposes
    .filter((purpose) => purpose === "recordatorios_whatsapp" || rows.some((row) => row.purpose === purpose))
    .map((purpose) => {
      const own = rows.filter((row) => row.purpose === purpose);
      const state = consentState(entries, purpose, now);
      const current = currentConsentText(purpose);
      return {
        purpose,
        label: consentTexts[purpose].label,
        description: consentTexts[purpose].description,
        state,
        stateLabel: stateLabels[state],
        withdrawId: state === "vigente" ? (own.find((row) => row.withdrawnAt === null)?.id ?? null) : null,
        giveBlockedReason: purpose === "recordatorios_whatsapp" && !hasPhone ? NEEDS_PHONE : null,
        currentVersion: current.version,
        currentText: current.text,
        entries: own.map(entryDto),
      };
    });
  return { purposes } satisfies ConsentSectionDto;
}

export async function profilingSection(db: Database, subject: DataSubject): Promise<ProfilingSectionDto> {
  return { objected: await profilingObjected(db, subject) };
}

/** The session's subject: the account, its e-mail and its phone. */
export async function myDataSubject(db: Database, userId: string): Promise<DataSubject> {
  return accountSubject(db, userId);
}

/**
 * One switch of the page, for the session's own subject only. Withdrawing names a row by id, which must be one of
 * the person's own (else NOT_FOUND, the same answer as an id that does not exist); it withdraws that purpose through
 * every contact. Answers the Spanish sentence the page shows.
 */
export async function changeMyData(db: Database, userId: string, input: MyDataAction): Promise<string> {
  const subject = await myDataSubject(db, userId);
  switch (input.intent) {
    case "retirar": {
      const row = await ownConsent(db, subject, input.consentId);
      const purpose = row.purpose as ConsentPurpose;
      await db.transaction((tx) => withdrawConsent(tx, { subject, purpose, channel: "mis_datos" }));
      return `Retiraste tu consentimiento: ${consentTexts[purpose].label}.`;
    }
    case "otorgar": {
      if (input.purpose === "recordatorios_whatsapp" && subject.phones.length === 0) {
        throw new AppError("VALIDATION", NEEDS_PHONE);
      }
      if (input.purpose === "marketing") {
        // Nothing to agree to: the clinic sends no marketing (the text exists for when it does).
        throw new AppError("VALIDATION", "La clínica no envía promociones por ahora.");
      }
      await db.transaction((tx) =>
        giveConsent(tx, { subject, purpose: input.purpose, channel: "mis_datos" }),
      );
      return `Diste tu consentimiento: ${consentTexts[input.purpose].label}.`;
    }
    case "oponerse":
      await objectToProfiling(db, subject, { createdBy: userId });
      return "Registramos tu oposición al perfilamiento: tus solicitudes no se clasifican automáticamente.";
    case "retirar-oposicion":
      await withdrawProfilingObjection(db, subject);
      return "Retiraste tu oposición al perfilamiento.";
  }
}
