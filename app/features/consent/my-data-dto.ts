import type { ConsentState } from "~/domain/consent-rules";
import type { ConsentPurpose } from "~/domain/privacy";

/** One ledger row as Mis Datos lists it: which text, when, where, and whether it is still in force. */
export interface ConsentEntryDto {
  id: string;
  version: string;
  /** The text the person agreed to (that version's, from `app/domain/consent-texts.ts`). */
  text: string;
  givenAtLabel: string;
  channelLabel: string;
  withdrawnAtLabel: string | null;
  withdrawnChannelLabel: string | null;
  stateLabel: string;
}

/** A purpose with its switch: in force or not, and the rows behind it. */
export interface ConsentPurposeDto {
  purpose: ConsentPurpose;
  label: string;
  description: string;
  state: ConsentState;
  stateLabel: string;
  /** The switch: withdraw this in-force row (null when nothing is in force). */
  withdrawId: string | null;
  /** Why the switch cannot give it now (no phone for WhatsApp), or null. */
  giveBlockedReason: string | null;
  /** The text a new giving agrees to (today's version). */
  currentVersion: string;
  currentText: string;
  entries: ConsentEntryDto[];
}

export interface ConsentSectionDto {
  purposes: ConsentPurposeDto[];
}

export interface ProfilingSectionDto {
  objected: boolean;
}

/**
 * The page's sections, composed by the loader. Two more come at the merge (the lead wires them): the export
 * ('Descargar mis datos') and the rights requests.
 */
export interface MyDataPageDto {
  /** Where the page lives (/paciente/datos or /cuenta/datos): the forms post back to it. */
  path: string;
  profilePath: string | null;
  consents: ConsentSectionDto;
  profiling: ProfilingSectionDto;
}
