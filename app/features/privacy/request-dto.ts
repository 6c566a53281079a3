import type { PrivacyRequestStatus, PrivacyRight } from "~/domain/privacy";
import type { StatusTone } from "~/domain/privacy-requests";

/** What the rights workflow's pages receive (client-safe: built field by field on the server). */

export interface ClockDto {
  /** "31 de diciembre de 2026" */
  dueDateLabel: string;
  dueDate: string;
  /** "12 días", "Vence hoy", "Vencida (hace 2 días)" */
  label: string;
  daysLeft: number;
  overdue: boolean;
  dueSoon: boolean;
}

export interface RequestRowDto {
  id: string;
  reference: string;
  right: PrivacyRight;
  rightLabel: string;
  status: PrivacyRequestStatus;
  statusLabel: string;
  statusTone: StatusTone;
  channelLabel: string;
  name: string;
  contact: string;
  createdLabel: string;
  createdIso: string;
  clock: ClockDto | null;
  extended: boolean;
}

export interface SubjectCountDto {
  table: string;
  label: string;
  rows: number;
  treatmentLabel: string;
  reason: string | null;
  until: string | null;
}

export interface EventDto {
  id: string;
  kindLabel: string;
  text: string;
  actor: string;
  atLabel: string;
  atIso: string;
}

export interface RequestDetailDto extends RequestRowDto {
  identity: string;
  email: string | null;
  phone: string | null;
  rut: string | null;
  details: string;
  blockingRequested: boolean;
  extensionReason: string | null;
  decisionReason: string | null;
  /** What the approval does, in a sentence (the Approve button's explanation). */
  effect: string;
  dataFound: SubjectCountDto[] | null;
  events: EventDto[];
  actions: { note: boolean; extend: boolean; decide: boolean };
}

export interface QueueCountsDto {
  overdue: number;
  dueThisWeek: number;
}
