import { formatChileanPhone, formatClinicDateTimeSeconds } from "~/domain/format";
import { labelOf } from "~/domain/lead-labels";
import { testSendProgress } from "~/domain/whatsapp-test-send";
import { whatsAppMessageStatuses, type WhatsAppMessageStatus } from "~/domain/whatsapp-message-status";
import type { Database } from "~/db/client.server";
import { normalizeWhatsAppNumber } from "~/integrations/whatsapp/phone";
import { WHATSAPP_TEMPLATE_PATH, WHATSAPP_TEXT_PATH } from "~/integrations/whatsapp/whatsapp-schemas";
import { clinicFacts, whatsAppTestMode } from "~/lib/base/env.server";
import { messageLogParams, messageLogSearchSchema } from "./message-log-schema";
import {
  API_LOG_SIZE,
  MESSAGE_PAGE_SIZE,
  type MessageLogPage,
  type MessageLogRow,
  type TestSendStatus,
  type TimeLabel,
  type WhatsAppCardData,
  type WhatsAppLogEntry,
} from "./whatsapp-log-dto";
import { purposeLabels, statusLabels, statusTones, type StatusTone } from "./whatsapp-labels";
import {
  latestCallsOfPurpose,
  listMessages,
  messagesWithDelivery,
  type ListedMessage,
} from "./whatsapp-log-repository.server";

/** The purpose of the test dashboard's messages. */
export const TEST_PURPOSE = "test";

/** An instant as "25-11-2026, 01:52:36" on the clinic's clock (DESIGN decision 8), formatted on the server. */
function timeLabel(instant: Date): TimeLabel {
  return { iso: instant.toISOString(), label: formatClinicDateTimeSeconds(instant) };
}

function isStatus(value: string): value is WhatsAppMessageStatus {
  return (whatsAppMessageStatuses as readonly string[]).includes(value);
}

function statusView(status: string): { statusLabel: string; tone: StatusTone } {
  return isStatus(status)
    ? { statusLabel: statusLabels[status], tone: statusTones[status] }
    : { statusLabel: status, tone: "neutral" };
}

/** Stored digits → "+56 9 8765 4321" (Chile) or "+<digits>". */
export function recipientLabel(toPhone: string): string {
  return formatChileanPhone(`+${toPhone}`);
}

function logEntry(row: ListedMessage, clinicNumber: string | null): WhatsAppLogEntry {
  return {
    id: row.id,
    time: timeLabel(row.failedAt ?? row.acceptedAt ?? row.createdAt),
    endpoint: row.kind === "template" ? WHATSAPP_TEMPLATE_PATH : WHATSAPP_TEXT_PATH,
    recipient: row.toPhone === clinicNumber ? "Clínica (asesor)" : "Paciente",
    status: row.status,
    ...statusView(row.status),
    messageId: row.providerMessageId ?? row.id,
    testMode: row.testMode === true,
    error: row.error,
  };
}

/** The card's API log: the latest 10 test messages, newest first, read from the database. */
export async function whatsAppCardData(db: Database): Promise<WhatsAppCardData> {
  const clinicNumber = normalizeWhatsAppNumber(clinicFacts().mobile);
  const rows = await latestCallsOfPurpose(db, TEST_PURPOSE, API_LOG_SIZE);
  return { clinicTestMode: whatsAppTestMode(), log: rows.map((row) => logEntry(row, clinicNumber)) };
}

/**
 * Where a test send stands: each message's status (only messages of the test card), and whether the outbox is
 * retrying one after a transient failure. Unknown ids are left out; the send is "sending" while one is missing.
 */
export async function testSendStatus(db: Database, ids: string[]): Promise<TestSendStatus> {
  const rows = await messagesWithDelivery(db, ids, TEST_PURPOSE);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const messages = ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const retrying =
      row.status === "queued" &&
      row.outboxStatus === "pending" &&
      row.lastError !== null &&
      row.attempts! > 0;
    return [
      {
        id,
        status: row.status,
        error: row.error,
        testMode: row.testMode === true,
        retryingAttempt: retrying ? row.attempts : null,
      },
    ];
  });
  const progress =
    messages.length < ids.length ? "sending" : testSendProgress(messages.map((message) => message.status));
  return { progress, messages, ...(await whatsAppCardData(db)) };
}

function messageRow(row: ListedMessage): MessageLogRow {
  return {
    id: row.id,
    created: timeLabel(row.createdAt),
    purpose: row.purpose,
    purposeLabel: labelOf(purposeLabels, row.purpose),
    recipient: recipientLabel(row.toPhone),
    kind: row.kind === "template" ? "template" : "text",
    content: row.kind === "template" ? (row.templateName ?? "") : (row.text ?? ""),
    placeholders: row.templatePlaceholders ?? [],
    testMode: row.testMode === true,
    status: row.status,
    ...statusView(row.status),
    error: row.error,
    delivered: row.deliveredAt ? timeLabel(row.deliveredAt) : null,
  };
}

/**
 * /funnel/mensajes: one page of sent messages, newest first, filtered by status, purpose and phone. A filter that
 * is not valid answers a Spanish message (and status 400) instead of a list.
 */
export async function messageLogPage(
  db: Database,
  params: URLSearchParams,
): Promise<{ page: MessageLogPage; status: number }> {
  const raw = messageLogParams(params);
  const parsed = messageLogSearchSchema.safeParse(raw);
  const shown = { estado: raw.estado ?? "", proposito: raw.proposito ?? "", telefono: raw.telefono ?? "" };
  if (!parsed.success) {
    return {
      status: 400,
      page: {
        filters: shown,
        error: parsed.error.issues[0]?.message ?? "Los filtros no son válidos.",
        rows: [],
        next: null,
        paged: false,
        pageSize: MESSAGE_PAGE_SIZE,
      },
    };
  }
  const query = parsed.data;
  const rows = await listMessages(db, {
    status: query.estado || undefined,
    purpose: query.proposito || undefined,
    toPhone: query.telefono || undefined,
    after: query.desde || undefined,
    limit: MESSAGE_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, MESSAGE_PAGE_SIZE);
  return {
    status: 200,
    page: {
      filters: { ...shown, telefono: shown.telefono.trim() },
      error: null,
      rows: page.map(messageRow),
      next: rows.length > MESSAGE_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null,
      paged: query.desde !== "",
      pageSize: MESSAGE_PAGE_SIZE,
    },
  };
}
