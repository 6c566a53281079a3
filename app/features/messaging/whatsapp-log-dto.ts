/** What the staff pages show of WhatsApp messages (client-safe DTOs; never the API key, never raw rows). */
import type { TestSendProgress } from "~/domain/whatsapp-test-send";
import type { ActionResult } from "~/lib/base/action-result";
import type { StatusTone } from "./whatsapp-labels";

export interface TimeLabel {
  iso: string;
  label: string;
}

/** One call of the test card's API log (the latest 10, as the clinic's specification has it). */
export interface WhatsAppLogEntry {
  id: string;
  /** When the call was made (accepted or failed), else when the message was queued; es-CL, clinic time. */
  time: TimeLabel;
  /** `/whatsapp/1/message/text` or `/whatsapp/1/message/template`. */
  endpoint: string;
  recipient: string;
  status: string;
  statusLabel: string;
  tone: StatusTone;
  /** The provider's messageId (ours until it answered; `test-…` in test mode). */
  messageId: string;
  testMode: boolean;
  error: string | null;
}

export const API_LOG_SIZE = 10;

/** The test card's data: whether the clinic is in test mode, and the API log. */
export interface WhatsAppCardData {
  clinicTestMode: boolean;
  log: WhatsAppLogEntry[];
}

export interface TestMessageState {
  id: string;
  status: string;
  error: string | null;
  testMode: boolean;
  /** The provider did not answer (429, 5xx, timeout) and the outbox retries: attempts so far. */
  retryingAttempt: number | null;
}

/** The status resource's answer while the card polls its messages. */
export interface TestSendStatus extends WhatsAppCardData {
  progress: TestSendProgress;
  messages: TestMessageState[];
}

/** The send action's answer: the queued messages' ids, in order (advisor, patient). */
export type WhatsAppTestSendResult = ActionResult<{ ids: string[]; testMode: boolean }>;

/** One row of /funnel/mensajes. */
export interface MessageLogRow {
  id: string;
  created: TimeLabel;
  purpose: string;
  purposeLabel: string;
  /** "+56 9 8765 4321" for Chilean numbers, else "+<digits>". */
  recipient: string;
  kind: "text" | "template";
  /** The text, or the template's name. */
  content: string;
  placeholders: string[];
  testMode: boolean;
  status: string;
  statusLabel: string;
  tone: StatusTone;
  error: string | null;
  /** When the delivery report came (also for a message already read). */
  delivered: TimeLabel | null;
}

export interface MessageLogFilters {
  estado: string;
  proposito: string;
  telefono: string;
}

export interface MessageLogPage {
  filters: MessageLogFilters;
  /** A Spanish message when a filter was not valid (nothing is listed then). */
  error: string | null;
  rows: MessageLogRow[];
  /** The cursor of the next (older) page, when there is one. */
  next: string | null;
  /** Whether this is a later page (a link back to the newest is shown). */
  paged: boolean;
  pageSize: number;
}

export const MESSAGE_PAGE_SIZE = 50;
