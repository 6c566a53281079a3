import { sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  exportedTables,
  personalTables,
  retainedUntilDate,
  retentionBases,
  type PersonalTable,
  type PersonalTableName,
} from "~/domain/privacy-data-map";
import { dataSubject, type DataSubject } from "~/features/consent/subject";

/**
 * Finds, counts, exports and erases a person's rows in every table of `domain/privacy-data-map.ts` (Ley 21.719,
 * ADR 037). The map says what each table is and what an erasure does to it; this module holds the one query per
 * table that finds the person's rows, from the subject resolved once (account, e-mails, phones, and the ids of the
 * rows that hang from them: leads, chat guests, appointments, payments, requests).
 */

/** A subject with everything needed to find their rows. */
export interface ResolvedSubject extends DataSubject {
  /** Names on the account, for the closing message and the erasure test (never used to match rows). */
  names: string[];
  ruts: string[];
  /** The phones as the WhatsApp tables keep them: digits with the country code. */
  phoneDigits: string[];
  leadIds: string[];
  guestIds: string[];
  roomIds: string[];
  appointmentIds: string[];
  paymentIds: string[];
  requestIds: string[];
  inboundIds: string[];
  dentalinkPatientIds: string[];
  mockPatientIds: string[];
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** `column in (values)`, false for no values. */
function inList(column: SQL, values: readonly string[]): SQL {
  if (values.length === 0) return sql`false`;
  return sql`${column} in (${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

function equalsUser(column: SQL, s: ResolvedSubject): SQL {
  return s.userId ? sql`${column} = ${s.userId}` : sql`false`;
}

const col = (name: string): SQL => sql`${sql.identifier(name)}`;
const lowerCol = (name: string) => sql`lower(${sql.identifier(name)})`;
const digitsOf = (expr: SQL) => sql`regexp_replace(coalesce(${expr}, ''), '[^0-9]', '', 'g')`;

/** Whether the text contains any of the needles (case-insensitive, no LIKE wildcards). */
function containsAny(text: SQL, needles: readonly string[]): SQL {
  if (needles.length === 0) return sql`false`;
  return sql`(${sql.join(
    needles.map((needle) => sql`position(${needle.toLowerCase()} in lower(${text})) > 0`),
    sql` or `,
  )})`;
}

function anyOf(...conditions: SQL[]): SQL {
  return sql`(${sql.join(conditions, sql` or `)})`;
}

/** The condition that selects the subject's rows of each table. */
const rowsAbout: Record<PersonalTableName, (s: ResolvedSubject) => SQL> = {
  users: (s) => equalsUser(col("id"), s),
  sessions: (s) => equalsUser(col("user_id"), s),
  accounts: (s) => equalsUser(col("user_id"), s),
  verifications: (s) => containsAny(col("identifier"), s.emails),
  two_factors: (s) => equalsUser(col("user_id"), s),
  sign_in_step_ups: (s) => equalsUser(col("user_id"), s),
  user_roles: (s) => equalsUser(col("user_id"), s),
  advisor_messages: (s) => equalsUser(col("user_id"), s),
  analytics_settings: (s) => equalsUser(col("user_id"), s),
  appointments: (s) => equalsUser(col("patient_id"), s),
  appointment_reminders: (s) => inList(col("appointment_id"), s.appointmentIds),
  appointment_action_tokens: (s) => inList(col("appointment_id"), s.appointmentIds),
  dentist_schedule_blocks: (s) => equalsUser(col("dentist_id"), s),
  audit_log: (s) => equalsUser(col("target_user_id"), s),
  chat_guests: (s) => inList(sql`${col("id")}::text`, s.guestIds),
  chat_rooms: (s) => inList(sql`${col("guest_id")}::text`, s.guestIds),
  chat_messages: (s) => inList(sql`${col("room_id")}::text`, s.roomIds),
  chat_refresh_tokens: (s) => inList(sql`${col("guest_id")}::text`, s.guestIds),
  clinical_record_bindings: (s) => equalsUser(col("user_id"), s),
  clinical_record_codes: (s) => equalsUser(col("user_id"), s),
  clinical_record_access: (s) =>
    anyOf(inList(col("rut"), s.ruts), inList(col("dentalink_patient_id"), s.dentalinkPatientIds)),
  leads: (s) => inList(sql`${col("id")}::text`, s.leadIds),
  lead_history: (s) => inList(sql`${col("lead_id")}::text`, s.leadIds),
  staff_availability: (s) => equalsUser(col("user_id"), s),
  dentalink_syncs: (s) =>
    anyOf(inList(sql`${col("lead_id")}::text`, s.leadIds), inList(col("patient_id"), s.dentalinkPatientIds)),
  dentalink_mock_patients: (s) => inList(sql`${col("id")}::text`, s.mockPatientIds),
  dentalink_mock_appointments: (s) => inList(sql`${col("record")}->>'id_paciente'`, s.mockPatientIds),
  dentalink_dentist_links: (s) => equalsUser(col("dentist_id"), s),
  dentalink_patient_links: (s) => equalsUser(col("user_id"), s),
  outbox: (s) =>
    containsAny(sql`${col("payload")}::text`, [
      ...s.emails,
      ...s.phones,
      ...s.phoneDigits,
      ...(s.userId ? [s.userId] : []),
    ]),
  charges: (s) => equalsUser(col("patient_id"), s),
  payments: (s) => equalsUser(col("patient_id"), s),
  payment_refunds: (s) => inList(sql`${col("payment_id")}::text`, s.paymentIds),
  patient_deposit_flags: (s) => equalsUser(col("patient_id"), s),
  privacy_requests: (s) => inList(sql`${col("id")}::text`, s.requestIds),
  privacy_request_events: (s) => inList(sql`${col("request_id")}::text`, s.requestIds),
  privacy_verifications: (s) => inList(sql`${col("request_id")}::text`, s.requestIds),
  consents: (s) =>
    anyOf(
      equalsUser(col("user_id"), s),
      inList(sql`${col("lead_id")}::text`, s.leadIds),
      inList(sql`${col("chat_guest_id")}::text`, s.guestIds),
      inList(lowerCol("email"), s.emails),
      inList(col("phone"), s.phones),
    ),
  privacy_restrictions: (s) =>
    anyOf(equalsUser(col("user_id"), s), inList(lowerCol("email"), s.emails), inList(col("phone"), s.phones)),
  data_exports: (s) => equalsUser(col("user_id"), s),
  privacy_incident_notices: (s) =>
    anyOf(equalsUser(col("user_id"), s), inList(lowerCol("email"), s.emails), inList(col("phone"), s.phones)),
  callback_requests: (s) =>
    anyOf(equalsUser(col("user_id"), s), inList(lowerCol("email"), s.emails), inList(col("phone"), s.phones)),
  rate_limits: (s) => containsAny(col("key"), [...s.emails, ...s.phones, ...s.phoneDigits]),
  whatsapp_messages: (s) =>
    anyOf(
      equalsUser(col("user_id"), s),
      inList(sql`${col("lead_id")}::text`, s.leadIds),
      inList(sql`${col("appointment_id")}::text`, s.appointmentIds),
      inList(col("to_phone"), s.phoneDigits),
    ),
  whatsapp_contacts: (s) => inList(col("phone"), s.phoneDigits),
  waitlist_entries: (s) => equalsUser(col("patient_id"), s),
  waitlist_offers: (s) => equalsUser(col("patient_id"), s),
  freed_slots: (s) => equalsUser(col("freed_by_patient_id"), s),
  form_assignments: (s) => equalsUser(col("patient_id"), s),
  form_submissions: (s) => equalsUser(col("patient_id"), s),
  whatsapp_inbound_messages: (s) =>
    anyOf(inList(col("from_phone"), s.phoneDigits), inList(sql`${col("lead_id")}::text`, s.leadIds)),
};

/** The anonymising update of each `anonymise` table: what identifies the person goes, the row stays. */
const anonymising: Partial<Record<PersonalTableName, (now: Date) => SQL>> = {
  users: (now) => sql`
    first_name = 'Persona', last_name = 'eliminada', email = 'eliminada-' || id || '@eliminado.invalid',
    email_verified = false, image = null, phone = null, address = null, emergency_contact = null,
    emergency_phone = null, rut = null, professional_title = null, whatsapp_opt_in_at = null,
    two_factor_enabled = false,
    deactivated_at = coalesce(deactivated_at, ${now}), erased_at = ${now}, updated_at = ${now}`,
  leads: (now) => sql`
    name = 'Persona eliminada', phone = '', email = null, message = '', reasons = '[]'::jsonb, updated_at = ${now}`,
  dentalink_syncs: () =>
    sql`request = '{}'::jsonb, message = null, errors = '[]'::jsonb, error_detail = null`,
  // A message not yet sent to the person is not sent at all.
  outbox: () => sql`
    payload = '{"eliminado": true}'::jsonb, last_error = case when status = 'pending' then 'Titular eliminado: no se envía' else last_error end,
    status = case when status = 'pending' then 'failed' else status end`,
  whatsapp_messages: () => sql`
    to_phone = '', text = case when kind = 'text' then '[eliminado]' else null end, template_placeholders = null,
    user_id = null, error = null`,
  freed_slots: () => sql`freed_by_patient_id = null`,
};

/**
 * Resolves who a request or an account is about: the account (given, or the one whose e-mail the person proved they
 * control), its e-mail and phone, RUTs, and the ids of the rows that hang from them.
 */
export async function resolveSubject(
  db: Database,
  input: { userId?: string | null; email?: string | null; phone?: string | null },
): Promise<ResolvedSubject> {
  let userId = input.userId ?? null;
  const email = input.email?.trim().toLowerCase() || null;
  if (!userId && email) {
    const [match] = rowsOf<{ id: string }>(
      await db.execute(sql`select id from users where lower(email) = ${email} and erased_at is null limit 1`),
    );
    userId = match?.id ?? null;
  }
  const user = userId
    ? rowsOf<{
        email: string;
        phone: string | null;
        rut: string | null;
        first_name: string;
        last_name: string;
      }>(
        await db.execute(
          sql`select email, phone, rut, first_name, last_name from users where id = ${userId}`,
        ),
      )[0]
    : undefined;
  const base = dataSubject({
    userId,
    emails: [email, user?.email],
    phones: [input.phone, user?.phone],
  });
  const phoneDigits = base.phones.map((phone) => phone.replace(/\D/g, ""));
  const ruts = new Set<string>(user?.rut ? [user.rut] : []);
  const dentalinkPatientIds = new Set<string>();
  if (userId) {
    for (const row of rowsOf<{ rut: string; dentalink_patient_id: string }>(
      await db.execute(
        sql`select rut, dentalink_patient_id from clinical_record_bindings where user_id = ${userId}`,
      ),
    )) {
      ruts.add(row.rut);
      dentalinkPatientIds.add(row.dentalink_patient_id);
    }
    for (const row of rowsOf<{ id: string }>(
      await db.execute(sql`
        select dentalink_patient_id as id from dentalink_patient_links where user_id = ${userId}
        union select dentalink_patient_id from appointments where patient_id = ${userId} and dentalink_patient_id is not null`),
    )) {
      dentalinkPatientIds.add(row.id);
    }
  }
  const s: ResolvedSubject = {
    ...base,
    names: user ? [`${user.first_name} ${user.last_name}`.trim()] : [],
    ruts: [...ruts],
    phoneDigits,
    leadIds: [],
    guestIds: [],
    roomIds: [],
    appointmentIds: [],
    paymentIds: [],
    requestIds: [],
    inboundIds: [],
    dentalinkPatientIds: [...dentalinkPatientIds],
    mockPatientIds: [],
  };
  const ids = async (query: SQL) =>
    rowsOf<{ id: string }>(await db.execute(query)).map((row) => String(row.id));
  s.leadIds = await ids(
    sql`select id::text as id from leads where ${anyOf(inList(sql`lower(email)`, s.emails), inList(sql`phone`, s.phones))}`,
  );
  s.guestIds = await ids(
    sql`select id::text as id from chat_guests where ${anyOf(
      equalsUser(sql`external_id`, s),
      inList(sql`lower(email)`, s.emails),
      inList(digitsOf(sql`phone`), s.phoneDigits),
    )}`,
  );
  s.roomIds = await ids(
    sql`select id::text as id from chat_rooms where ${inList(sql`guest_id::text`, s.guestIds)}`,
  );
  s.appointmentIds = await ids(
    sql`select id::text as id from appointments where ${equalsUser(sql`patient_id`, s)}`,
  );
  s.paymentIds = await ids(sql`select id::text as id from payments where ${equalsUser(sql`patient_id`, s)}`);
  s.requestIds = await ids(
    sql`select id::text as id from privacy_requests where ${anyOf(
      equalsUser(sql`user_id`, s),
      inList(sql`lower(email)`, s.emails),
      inList(sql`phone`, s.phones),
    )}`,
  );
  s.inboundIds = await ids(
    sql`select id::text as id from whatsapp_inbound_messages where ${anyOf(
      inList(sql`from_phone`, s.phoneDigits),
      inList(sql`lead_id::text`, s.leadIds),
    )}`,
  );
  s.mockPatientIds = await ids(
    sql`select id::text as id from dentalink_mock_patients where ${anyOf(
      inList(sql`lower(record->>'email')`, s.emails),
      inList(sql`record->>'rut'`, s.ruts),
      inList(digitsOf(sql`record->>'celular'`), s.phoneDigits),
      inList(sql`id::text`, s.dentalinkPatientIds),
    )}`,
  );
  return s;
}

const tableId = (name: PersonalTableName) => sql.identifier(name);

/** How many of the subject's rows each table holds (the admin's "datos encontrados"), tables with none left out. */
export async function countSubjectData(
  db: Database,
  subject: ResolvedSubject,
): Promise<
  Array<{
    table: PersonalTableName;
    label: string;
    rows: number;
    treatment: PersonalTable["erasure"];
    reason?: string;
  }>
> {
  const counts = [];
  for (const table of exportedTables()) {
    const entry: PersonalTable = personalTables[table];
    const [row] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from ${tableId(table)} where ${rowsAbout[table](subject)}`),
    );
    const rows = Number(row?.n ?? 0);
    if (rows === 0) continue;
    counts.push({
      table,
      label: entry.label,
      rows,
      treatment: entry.erasure,
      ...(entry.retention ? { reason: retentionBases[entry.retention.basis].reason } : {}),
    });
  }
  return counts;
}

export interface SubjectTableData {
  table: PersonalTableName;
  label: string;
  rows: Record<string, unknown>[];
}

/**
 * Every row about the subject in every table, secrets (password hashes, tokens, files) left out, in the map's order.
 * `onTable` reports progress after each table.
 */
export async function collectSubjectData(
  db: Database,
  subject: ResolvedSubject,
  onTable?: (done: number, total: number, label: string) => Promise<void> | void,
): Promise<SubjectTableData[]> {
  const tables = exportedTables();
  const out: SubjectTableData[] = [];
  for (const [index, table] of tables.entries()) {
    const entry: PersonalTable = personalTables[table];
    const secrets = new Set(entry.secretColumns ?? []);
    const rows = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select * from ${tableId(table)} where ${rowsAbout[table](subject)}`),
    ).map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !secrets.has(key))));
    out.push({ table, label: entry.label, rows });
    await onTable?.(index + 1, tables.length, entry.label);
  }
  return out;
}

async function count(tx: Database, query: SQL): Promise<number> {
  return Number(rowsOf<{ n: number | string }>(await tx.execute(query))[0]?.n ?? 0);
}

export interface ErasureReport {
  erased: Array<{ table: PersonalTableName; label: string; rows: number }>;
  anonymised: Array<{ table: PersonalTableName; label: string; rows: number }>;
  /** What the law makes the clinic keep: why, and until when (ISO date of the last row's term). */
  retained: Array<{ table: PersonalTableName; label: string; rows: number; reason: string; until: string }>;
}

/**
 * Erases the subject everywhere the law does not make the clinic keep the data (Ley 21.719 art. 7): deletes or
 * anonymises per the map, in one transaction, and reports what was kept, why and until when. The account can no
 * longer sign in (credentials and sessions deleted, e-mail replaced, `erased_at` set).
 */
export async function eraseSubjectData(
  db: Database,
  subject: ResolvedSubject,
  options: { now?: Date } = {},
): Promise<ErasureReport> {
  const now = options.now ?? new Date();
  const report: ErasureReport = { erased: [], anonymised: [], retained: [] };
  await db.transaction(async (tx) => {
    for (const table of exportedTables()) {
      const entry: PersonalTable = personalTables[table];
      const where = rowsAbout[table](subject);
      if (entry.erasure === "retain") {
        const from = entry.retention?.from ?? "created_at";
        const [row] = rowsOf<{ n: number | string; last: Date | string | null }>(
          await tx.execute(
            sql`select count(*) as n, max(${sql.identifier(from)}) as last from ${tableId(table)} where ${where}`,
          ),
        );
        const rows = Number(row?.n ?? 0);
        if (rows === 0 || !entry.retention) continue;
        const last = row?.last ? new Date(row.last) : now;
        report.retained.push({
          table,
          label: entry.label,
          rows,
          reason: retentionBases[entry.retention.basis].reason,
          until: retainedUntilDate(entry.retention.basis, last),
        });
        continue;
      }
      // Users last: the other tables' rows are found through the account, and some point at it.
      if (table === "users") continue;
      const n =
        entry.erasure === "erase"
          ? await count(
              tx as unknown as Database,
              sql`with gone as (delete from ${tableId(table)} where ${where} returning 1) select count(*) as n from gone`,
            )
          : await count(
              tx as unknown as Database,
              sql`with changed as (update ${tableId(table)} set ${anonymising[table]!(now)} where ${where} returning 1) select count(*) as n from changed`,
            );
      if (n > 0)
        (entry.erasure === "erase" ? report.erased : report.anonymised).push({
          table,
          label: entry.label,
          rows: n,
        });
    }
    if (subject.userId) {
      const n = await count(
        tx as unknown as Database,
        sql`with changed as (update users set ${anonymising.users!(now)} where id = ${subject.userId} returning 1) select count(*) as n from changed`,
      );
      if (n > 0) report.anonymised.push({ table: "users", label: personalTables.users.label, rows: n });
    }
  });
  return report;
}
