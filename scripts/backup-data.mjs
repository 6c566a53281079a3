// Shared by tests/integration/backup-restore.test.ts and scripts/bench-backup.mjs (ADR 046): bulk rows in a few
// multi-row statements, and a checksum of every table. `query(sql)` runs one statement and answers its rows
// (PGlite's client.query(sql).rows, or pg's (await client.query(sql)).rows).

/** One patient and one dentist the appointments hang on (ids prefixed, so that two seeds never collide). */
export function seedUsersSql(prefix) {
  return `insert into users (id, first_name, last_name, email) values
    ('${prefix}-patient', 'Paciente', 'Respaldo', '${prefix}-paciente@respaldo.example'),
    ('${prefix}-dentist', 'Dentista', 'Respaldo', '${prefix}-dentista@respaldo.example')`;
}

/** `count` leads numbered from `from` (generate_series: one statement whatever the count). */
export function seedLeadsSql(prefix, from, count) {
  return `insert into leads (submission_id, name, phone, email, treatment, urgency, budget, message, score, level,
      reasons, source, consent_at, created_at, updated_at)
    select gen_random_uuid(), 'Persona ' || i, '+569' || lpad((10000000 + i)::text, 8, '0'),
      '${prefix}-' || i || '@leads.example', 'limpieza', 'pronto', 'medio', 'Mensaje número ' || i, (i % 101), 
      (array['hot','warm','cold'])[1 + i % 3], '["respaldo"]'::jsonb, 'web',
      timestamptz '2027-01-01 12:00Z' + i * interval '1 minute',
      timestamptz '2027-01-01 12:00Z' + i * interval '1 minute',
      timestamptz '2027-01-01 12:00Z' + i * interval '1 minute'
    from generate_series(${from}, ${from + count - 1}) as i`;
}

/** `count` appointments an hour apart (one dentist's agenda may not overlap), numbered from `from`. */
export function seedAppointmentsSql(prefix, from, count) {
  return `insert into appointments (patient_id, dentist_id, starts_at, ends_at, duration_minutes, status, notes,
      created_at, updated_at)
    select '${prefix}-patient', '${prefix}-dentist', timestamptz '2028-01-01 12:00Z' + i * interval '1 hour',
      timestamptz '2028-01-01 12:30Z' + i * interval '1 hour', 30, 'scheduled', 'Cita ' || i,
      timestamptz '2027-01-01 12:00Z', timestamptz '2027-01-01 12:00Z'
    from generate_series(${from}, ${from + count - 1}) as i`;
}

/**
 * Every table outside PostgreSQL's own schemas, as `schema.table`.
 * @param {(sql: string) => Promise<Record<string, unknown>[]>} query
 * @returns {Promise<string[]>}
 */
export async function listTables(query) {
  const rows = await query(
    `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
       and n.nspname not like 'pg\\_%' order by 1, 2`,
  );
  return rows.map((row) => `${String(row.schema)}.${String(row.name)}`);
}

/**
 * Per table: its row count and the md5 of its rows' text, ordered by the rows' own text (a total order that needs no
 * primary key, and the same on both sides of a restore). `where` filters rows (e.g. the rows a write load added).
 * @param {(sql: string) => Promise<Record<string, unknown>[]>} query
 * @param {(table: string) => string} [where]
 * @returns {Promise<Record<string, { rows: number; md5: string }>>}
 */
export async function tableChecksums(query, where = () => "true") {
  /** @type {Record<string, { rows: number; md5: string }>} */
  const result = {};
  for (const table of await listTables(query)) {
    const quoted = table
      .split(".")
      .map((part) => `"${part.replace(/"/g, '""')}"`)
      .join(".");
    const [row] = await query(
      `select count(*)::int as rows, coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as md5
       from ${quoted} t where ${where(table)}`,
    );
    result[table] = { rows: Number(row?.rows), md5: String(row?.md5) };
  }
  return result;
}
