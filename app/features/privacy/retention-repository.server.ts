import { sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { ANONYMISED_NAME, REDACTED_BODY, type RetentionKey } from "~/domain/retention";

/**
 * The SQL of each retention rule (ADR 038): which rows of its table are past the period at a cut-off, and what
 * happens to them. Identifiers are constants of this file (never input); the cut-off is a parameter. Every
 * condition also excludes rows already anonymised, so a sweep ends and a second sweep finds nothing.
 */

type Executor = Pick<Database, "execute">;

interface SweepSpec {
  table: string;
  /** The primary key (one column) a batch is selected by. */
  id: string;
  where: (cutoff: Date) => SQL;
  /** For anonymise: the SET list. Without it the rows are deleted. */
  set?: SQL;
  /** Runs in the batch's transaction before the rows are changed: what must go with them. */
  before?: (tx: Executor, ids: SQL) => Promise<void>;
}

const REDACTED_PAYLOAD = sql`'{"redacted": true}'::jsonb`;

/** Timestamps cross the wire as ISO text (PGlite and pg agree on that; a Date parameter does not on both). */
const at = (cutoff: Date) => sql`${cutoff.toISOString()}::timestamptz`;

export const sweepSpecs: Record<Exclude<RetentionKey, KeptKey>, SweepSpec> = {
  leads: {
    table: "leads",
    id: "id",
    // Last activity: creation, any update, the last contact or a repeated request.
    where: (cutoff) =>
      sql`greatest(created_at, updated_at, coalesce(last_contact_at, created_at), coalesce(resubmitted_at, created_at)) < ${at(cutoff)} and not (name = ${ANONYMISED_NAME} and phone = '' and email is null and message = '')`,
    set: sql`name = ${ANONYMISED_NAME}, phone = '', email = null, message = ''`,
    // The lead's history (staff notes, copied messages) and its WhatsApp messages identify the person too.
    before: async (tx, ids) => {
      await tx.execute(sql`delete from lead_history where lead_id in (${ids})`);
      await tx.execute(sql`delete from whatsapp_messages where lead_id in (${ids})`);
      await tx.execute(sql`delete from whatsapp_inbound_messages where lead_id in (${ids})`);
    },
  },
  callback_requests: {
    table: "callback_requests",
    id: "id",
    where: (cutoff) => sql`created_at < ${at(cutoff)}`,
  },
  chat_rooms: {
    table: "chat_rooms",
    id: "id",
    where: (cutoff) => sql`last_message_at < ${at(cutoff)}`,
  },
  chat_guests: {
    table: "chat_guests",
    id: "id",
    // Only anonymous guests (an account's guest goes with the account) without a conversation left.
    where: (cutoff) =>
      sql`external_id is null and updated_at < ${at(cutoff)} and not exists (select 1 from chat_rooms r where r.guest_id = chat_guests.id)`,
  },
  advisor_messages: {
    table: "advisor_messages",
    id: "id",
    where: (cutoff) => sql`created_at < ${at(cutoff)}`,
  },
  whatsapp_bodies: {
    table: "whatsapp_messages",
    id: "id",
    where: (cutoff) =>
      sql`created_at < ${at(cutoff)} and ((text is not null and text <> ${REDACTED_BODY}) or template_placeholders is not null)`,
    set: sql`text = case when text is null then null else ${REDACTED_BODY} end, template_placeholders = null`,
  },
  whatsapp_inbound_bodies: {
    table: "whatsapp_inbound_messages",
    id: "id",
    where: (cutoff) => sql`received_at < ${at(cutoff)} and (text is not null or contact_name is not null)`,
    set: sql`text = null, contact_name = null`,
  },
  lead_history_bodies: {
    table: "lead_history",
    id: "id",
    where: (cutoff) => sql`kind = 'whatsapp-inbound' and at < ${at(cutoff)} and text <> ${REDACTED_BODY}`,
    set: sql`text = ${REDACTED_BODY}`,
  },
  whatsapp_contacts: {
    table: "whatsapp_contacts",
    id: "phone",
    where: (cutoff) => sql`last_inbound_at < ${at(cutoff)}`,
  },
  outbox_payloads: {
    table: "outbox",
    id: "id",
    where: (cutoff) =>
      sql`status in ('sent', 'failed') and coalesce(sent_at, created_at) < ${at(cutoff)} and (payload <> ${REDACTED_PAYLOAD} or last_error is not null)`,
    set: sql`payload = ${REDACTED_PAYLOAD}, last_error = null`,
  },
  outbox_rows: {
    table: "outbox",
    id: "id",
    where: (cutoff) => sql`status in ('sent', 'failed') and coalesce(sent_at, created_at) < ${at(cutoff)}`,
  },
  dentalink_syncs: {
    table: "dentalink_syncs",
    id: "id",
    where: (cutoff) => sql`outcome <> 'processing' and created_at < ${at(cutoff)}`,
  },
  sessions: { table: "sessions", id: "id", where: (cutoff) => sql`expires_at < ${at(cutoff)}` },
  verifications: { table: "verifications", id: "id", where: (cutoff) => sql`expires_at < ${at(cutoff)}` },
  sign_in_step_ups: {
    table: "sign_in_step_ups",
    id: "id",
    where: (cutoff) => sql`expires_at < ${at(cutoff)}`,
  },
  clinical_record_codes: {
    table: "clinical_record_codes",
    id: "id",
    where: (cutoff) => sql`expires_at < ${at(cutoff)}`,
  },
  appointment_action_tokens: {
    table: "appointment_action_tokens",
    id: "id",
    where: (cutoff) => sql`expires_at < ${at(cutoff)}`,
  },
  chat_refresh_tokens: {
    table: "chat_refresh_tokens",
    id: "id",
    where: (cutoff) => sql`expires_at < ${at(cutoff)}`,
  },
  rate_limits: { table: "rate_limits", id: "key", where: (cutoff) => sql`window_start < ${at(cutoff)}` },
  privacy_verifications: {
    table: "privacy_verifications",
    id: "id",
    where: (cutoff) => sql`expires_at < ${at(cutoff)}`,
  },
  privacy_requests_unverified: {
    table: "privacy_requests",
    id: "id",
    where: (cutoff) => sql`status in ('unverified', 'expired') and created_at < ${at(cutoff)}`,
  },
  data_exports: {
    table: "data_exports",
    id: "id",
    where: (cutoff) => sql`coalesce(ready_at, created_at) < ${at(cutoff)}`,
  },
  privacy_requests_closed: {
    table: "privacy_requests",
    id: "id",
    where: (cutoff) =>
      sql`status in ('approved', 'partially_approved', 'refused', 'withdrawn') and coalesce(decided_at, updated_at) < ${at(cutoff)}`,
  },
  privacy_restrictions: {
    table: "privacy_restrictions",
    id: "id",
    where: (cutoff) => sql`ends_at is not null and ends_at < ${at(cutoff)}`,
  },
  consents: {
    table: "consents",
    id: "id",
    where: (cutoff) => sql`withdrawn_at is not null and withdrawn_at < ${at(cutoff)}`,
  },
  audit_log: { table: "audit_log", id: "id", where: (cutoff) => sql`created_at < ${at(cutoff)}` },
  privacy_incidents: {
    table: "privacy_incidents",
    id: "id",
    where: (cutoff) => sql`status = 'closed' and updated_at < ${at(cutoff)}`,
  },
  form_drafts: {
    table: "form_assignments",
    id: "id",
    // Pending forms of appointments long past (a submitted form's row stays with its submission).
    where: (cutoff) =>
      sql`status <> 'completado' and exists (select 1 from appointments a where a.id = form_assignments.appointment_id and a.starts_at < ${at(cutoff)})`,
  },
  waitlist_entries: {
    table: "waitlist_entries",
    id: "id",
    where: (cutoff) => sql`status <> 'activa' and coalesce(status_changed_at, updated_at) < ${at(cutoff)}`,
  },
  waitlist_offers: {
    table: "waitlist_offers",
    id: "id",
    where: (cutoff) => sql`sent_at < ${at(cutoff)}`,
  },
};

type KeptKey =
  "clinical_record_access" | "appointments" | "form_submissions" | "charges" | "payments" | "payment_refunds";

/** The legal minimums: only counted (rows past the minimum, kept until the clinic reviews them). */
export const keptSpecs: Record<KeptKey, { table: string; where: (cutoff: Date) => SQL }> = {
  clinical_record_access: { table: "clinical_record_access", where: (c) => sql`created_at < ${at(c)}` },
  appointments: { table: "appointments", where: (c) => sql`starts_at < ${at(c)}` },
  form_submissions: { table: "form_submissions", where: (c) => sql`submitted_at < ${at(c)}` },
  charges: { table: "charges", where: (c) => sql`created_at < ${at(c)}` },
  payments: { table: "payments", where: (c) => sql`created_at < ${at(c)}` },
  payment_refunds: { table: "payment_refunds", where: (c) => sql`created_at < ${at(c)}` },
};

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** How many rows of `table` match `where` (the dry run, and the kept tables' report). */
export async function countRows(db: Executor, table: string, where: SQL): Promise<number> {
  const [row] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*) as n from ${sql.raw(table)} where ${where}`),
  );
  return Number(row?.n ?? 0);
}

/**
 * One batch of a rule: at most `limit` rows past the period, locked (SKIP LOCKED: a row someone is writing waits
 * for the next batch), changed in one transaction with what goes with them. Answers how many rows it changed.
 */
export async function sweepBatch(
  db: Database,
  spec: SweepSpec,
  cutoff: Date,
  limit: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const table = sql.raw(spec.table);
    const id = sql.raw(spec.id);
    const picked = rowsOf<{ id: string }>(
      await tx.execute(
        sql`select ${id} as id from ${table} where ${spec.where(cutoff)} limit ${limit} for update skip locked`,
      ),
    ).map((row) => row.id);
    if (picked.length === 0) return 0;
    const ids = sql.join(
      picked.map((value) => sql`${value}`),
      sql`, `,
    );
    await spec.before?.(tx, ids);
    if (spec.set) {
      await tx.execute(sql`update ${table} set ${spec.set} where ${id} in (${ids})`);
    } else {
      await tx.execute(sql`delete from ${table} where ${id} in (${ids})`);
    }
    return picked.length;
  });
}
