import type { ConsentPurpose } from "./privacy";

/**
 * The text of every consent the product asks for, each version kept forever (Ley 21.719, ADR 037): the ledger
 * (`consents.text_version`) says which version a person agreed to, and Mis Datos shows that very text. A change of
 * wording is a new version appended here (never an edit of an old one); the forms then record the new version.
 * Version 'v1' of each is the text the product showed before the ledger existed (migration 0025 backfilled it).
 */

export interface ConsentText {
  version: string;
  /** The wording shown beside the checkbox, switch or button, as the person read it. */
  text: string;
  /** From when this version is shown (ISO date, clinic time). */
  since: string;
}

export interface ConsentPurposeTexts {
  /** The purpose as Mis Datos names it. */
  label: string;
  /** What giving it allows, in one sentence (Mis Datos). */
  description: string;
  /** Every version, oldest first; the last one is the one shown today. */
  versions: readonly ConsentText[];
}

export const consentTexts: Record<ConsentPurpose, ConsentPurposeTexts> = {
  datos_contacto: {
    label: "Uso de mis datos para contactarme",
    description:
      "La clínica usa el nombre, teléfono y e-mail que dejaste en el formulario o el asistente para responder tu consulta.",
    versions: [
      {
        version: "v1",
        // The landing's lead form; the guided assistant said it shorter ("Acepto ser contactado según la Política de
        // Privacidad."), with the same meaning and the same policy, so both are this version.
        text: "Acepto que la clínica use estos datos para contactarme, según la Política de Privacidad.",
        since: "2026-01-01",
      },
    ],
  },
  recordatorios_whatsapp: {
    label: "Recordatorios y avisos de mis citas por WhatsApp",
    description:
      "Recordatorios de tus citas y avisos de reservas, cambios y pagos al teléfono móvil de tu perfil, por WhatsApp.",
    versions: [
      {
        version: "v1",
        text: "Recibir recordatorios y avisos de mis citas por WhatsApp",
        since: "2026-01-01",
      },
    ],
  },
  marketing: {
    label: "Novedades y promociones",
    description: "Mensajes con novedades, campañas y promociones de la clínica.",
    versions: [
      {
        version: "v1",
        // The product sends no marketing yet; the text exists so that a future form records a known version.
        text: "Quiero recibir novedades y promociones de la clínica. Puedo dejar de recibirlas cuando quiera.",
        since: "2026-12-01",
      },
    ],
  },
  chat_ia: {
    label: "Chat con asistente virtual (IA)",
    description:
      "El chat del sitio lo responde un asistente automatizado; tu conversación se guarda para atenderte.",
    versions: [
      {
        version: "v1",
        text:
          "Este chat lo responde un asistente virtual automatizado, que usa el contenido de la clínica. No " +
          "entrega diagnósticos ni reemplaza una evaluación con tu dentista. Guardamos la conversación para " +
          "atenderte (Ley 21.719). Puedes pedir hablar con una persona en cualquier momento.",
        since: "2026-11-01",
      },
    ],
  },
};

/**
 * Earlier names of a version. The chat's notice was versioned "2026-11-1" by the chat platform before the ledger
 * (`chat_rooms.ai_consent_version`, copied by the backfill): it is the same text as 'v1'.
 */
const versionAliases: Partial<Record<ConsentPurpose, Record<string, string>>> = {
  chat_ia: { "2026-11-1": "v1" },
};

/** The version a stored or posted name refers to ('2026-11-1' → 'v1' for the chat), or the name itself. */
export function canonicalConsentVersion(purpose: ConsentPurpose, version: string): string {
  return versionAliases[purpose]?.[version] ?? version;
}

/** Every name that means a known version of the purpose, the aliases included. */
export function knownConsentVersions(purpose: ConsentPurpose): string[] {
  return [
    ...consentTexts[purpose].versions.map((entry) => entry.version),
    ...Object.keys(versionAliases[purpose] ?? {}),
  ];
}

/** The version shown today. */
export function currentConsentText(purpose: ConsentPurpose): ConsentText {
  const versions = consentTexts[purpose].versions;
  const current = versions[versions.length - 1];
  if (!current) throw new Error(`no consent text for ${purpose}`);
  return current;
}

export function currentConsentVersion(purpose: ConsentPurpose): string {
  return currentConsentText(purpose).version;
}

/** The text of a version (aliases accepted), or null when it is not one of the purpose's versions. */
export function consentTextOf(purpose: ConsentPurpose, version: string): ConsentText | null {
  const canonical = canonicalConsentVersion(purpose, version);
  return consentTexts[purpose].versions.find((entry) => entry.version === canonical) ?? null;
}

/** The chat's AI notice version, as the chat platform posts it (`AI_NOTICE_VERSION`). */
export const CHAT_AI_NOTICE_VERSION = currentConsentVersion("chat_ia");

/**
 * The text split around its link to the privacy policy, so a form can render the link inside the versioned wording:
 * `[before, "Política de Privacidad", after]`, or `[text, null, ""]` when it has none.
 */
export function splitAtPolicyLink(text: string): [string, string | null, string] {
  const link = "Política de Privacidad";
  const at = text.indexOf(link);
  if (at < 0) return [text, null, ""];
  return [text.slice(0, at), link, text.slice(at + link.length)];
}
