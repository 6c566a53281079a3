// npm run bench:leads — the lead panel over 100,000 leads on the embedded database (budget: search, filter and
// page queries p95 ≤ 50 ms on PGlite; ADR 027). Seeds 100,000 synthetic Chilean leads into a fresh PGlite data
// directory, starts the production server on it, signs in as the demo asesor and times the panel's loader
// (`/funnel.data?tab=leads&…`, what a client-side navigation fetches: session, counters, count and page) for each
// query type, one request at a time, rotating through several queries of the type. Then downloads the CSV export of
// all 100,000 leads, timing it and sampling the server's resident memory. `--json <file>` (or BENCH_JSON) also
// writes the figures as JSON. BENCH_LEADS (default 100000), BENCH_REQUESTS per type (default 200), BENCH_PORT,
// BENCH_KEEP_DATA=1.
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { emitFigures, figure } from "./bench-json.mjs";
import { percentile } from "./open-loop.mjs";
import { signInCookie, startBenchServer } from "./bench-server.mjs";

const total = Number(process.env.BENCH_LEADS ?? 100_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const port = Number(process.env.BENCH_PORT ?? 3513);
const P95_BUDGET_MS = 50;
const round = (value) => Math.round(value * 10) / 10;

// 1. Boot once so migrations and demo accounts exist, then stop (PGlite allows one process per data directory).
let server = await startBenchServer({ port, keepData: true });
const dataDir = server.dataDir;
await server.stop();

// 2. Seed: names with and without accents, phones, e-mails for 70%, every level/status/source/treatment, created
// over the last 365 days, a quarter unassigned and the rest spread over the demo asesor and two more.
const db = await PGlite.create(path.join(dataDir, "pglite"), {
  extensions: { btree_gin, btree_gist, pg_trgm, unaccent },
});
const seedStarted = performance.now();
await db.exec(`
  insert into users (id, first_name, last_name, email, email_verified)
  values ('bench-asesor-1', 'Tomás', 'Araya', 'bench-asesor-1@example.com', true),
         ('bench-asesor-2', 'Daniela', 'Núñez', 'bench-asesor-2@example.com', true)
  on conflict do nothing;
  insert into user_roles (user_id, role_id)
  select u.id, r.id from users u, roles r
  where u.id in ('bench-asesor-1', 'bench-asesor-2') and r.name = 'asesor'
  on conflict do nothing;
`);
const asesor = (await db.query("select id from users where email = 'asesor@clinica.example'")).rows[0].id;
// The tallies trigger would upsert once per row; off for the bulk insert, the tallies are recounted after it.
await db.exec("alter table leads disable trigger leads_tallies");
await db.query("select setseed(0.42)");
await db.query(
  `with first_names(a) as (select array['María','José','Camila','Matías','Valentina','Benjamín','Sofía','Agustín',
          'Martina','Vicente','Isidora','Tomás','Florencia','Joaquín','Antonia','Maximiliano','Fernanda','Cristóbal',
          'Catalina','Sebastián','Javiera','Nicolás','Constanza','Ignacio','Francisca','Héctor','Ángela','Raúl',
          'Inés','Andrés']),
        last_names(a) as (select array['González','Muñoz','Rojas','Díaz','Pérez','Soto','Contreras','Silva',
          'Martínez','Sepúlveda','Morales','Rodríguez','López','Fuentes','Hernández','Torres','Araya','Flores',
          'Espinoza','Valenzuela','Castillo','Tapia','Reyes','Gutiérrez','Castro','Pizarro','Álvarez','Vásquez',
          'Sánchez','Fernández','Ramírez','Carrasco','Gómez','Cortés','Herrera','Núñez','Jara','Vergara','Rivera',
          'Figueroa']),
        seeded as (
     select g, random() as r1, random() as r2, random() as r3, random() as r4, random() as r5, random() as r6,
            random() as r7, random() as r8, random() as r9
     from generate_series(1, $1::int) g)
   insert into leads (submission_id, name, phone, email, treatment, urgency, budget, message, score, level,
                      reasons, status, source, consent_at, created_at, updated_at, last_contact_at,
                      first_contact_at, assigned_to)
   select gen_random_uuid(),
          f.a[1 + (s.r1 * 30)::int % 30] || ' ' || l.a[1 + (s.r2 * 40)::int % 40] || ' ' ||
            l.a[1 + (s.r3 * 40)::int % 40],
          '+569' || lpad(((s.g * 7919) % 100000000)::text, 8, '0'),
          case when s.r4 < 0.7 then
            lower(f_unaccent(f.a[1 + (s.r1 * 30)::int % 30])) || '.' ||
            lower(f_unaccent(l.a[1 + (s.r2 * 40)::int % 40])) || s.g ||
            (array['@gmail.com','@hotmail.com','@outlook.com','@yahoo.es','@uc.cl'])[1 + s.g % 5] end,
          (array['implantes','estetica','ortodoncia','evaluacion'])[1 + (s.r7 * 4)::int % 4],
          (array['inmediato','1-mes','3-meses','evaluando'])[1 + (s.g / 4) % 4],
          (array['bajo','medio','alto','consultar'])[1 + (s.g / 16) % 4],
          case when s.g % 3 = 0 then 'Quisiera saber el valor y si tienen horas esta semana.' else '' end,
          sc.score,
          case when sc.score >= 70 then 'hot' when sc.score >= 40 then 'warm' else 'cold' end,
          '[]'::jsonb,
          st.status,
          (array['web','asistente','whatsapp','social'])[1 + (s.r8 * 4)::int % 4],
          c.created_at, c.created_at, c.created_at,
          case when st.status <> 'new' then c.created_at + (s.r5 * interval '72 hours') end,
          case when st.status <> 'new' then c.created_at + (s.r5 * interval '72 hours') end,
          case when s.r9 < 0.25 then null
               when s.r9 < 0.5 then $2
               when s.r9 < 0.75 then 'bench-asesor-1'
               else 'bench-asesor-2' end
   from seeded s, first_names f, last_names l,
        lateral (select (s.r5 * 100)::int as score) sc,
        lateral (select (array['new','new','contacted','qualified','scheduled','converted','lost'])
                          [1 + (s.r6 * 7)::int % 7] as status) st,
        lateral (select now() - (s.r4 * interval '365 days') as created_at) c`,
  [total, asesor],
);
await db.exec(`
  alter table leads enable trigger leads_tallies;
  delete from lead_tallies;
  insert into lead_tallies (level, status, n) select level, status, count(*) from leads group by level, status;
`);
const seedMs = performance.now() - seedStarted;
const count = (await db.query("select count(*)::int as n from leads")).rows[0].n;
// Real leads to look up by phone (typed three ways) and by e-mail fragment.
const samples = (
  await db.query("select phone, email from leads where email is not null order by md5(id::text) limit 40")
).rows;
await db.close();

/** A stored phone (+569XXXXXXXX) typed three ways: '+56 9 1234 5678', '912345678', '9 1234-5678'. */
function phoneFormats(phone) {
  const local = phone.slice(4);
  return [
    `+56 9 ${local.slice(0, 4)} ${local.slice(4)}`,
    `9${local}`,
    `9 ${local.slice(0, 4)}-${local.slice(4)}`,
  ];
}

// 3. Restart on the filled database (startBenchServer waits for its first VACUUM ANALYZE), sign the demo asesor in.
server = await startBenchServer({ port, dataDir });
try {
  const cookie = await signInCookie(server.base, "asesor@clinica.example");

  const types = [
    {
      key: "search-word",
      label: "search, one word",
      queries: ["gonzalez", "MUÑOZ", "rojas", "valen", "sepulveda", "ines", "cristobal", "nunez"].map(
        (q) => ({ q }),
      ),
    },
    {
      key: "search-multi",
      label: "search, several words",
      queries: ["gonz rojas", "maria soto", "jose munoz perez", "camila diaz", "tomas herrera vergara"].map(
        (q) => ({ q }),
      ),
    },
    {
      key: "search-phone",
      label: "search, phone",
      queries: samples.flatMap((row) => phoneFormats(row.phone)).map((q) => ({ q })),
    },
    {
      key: "search-email",
      label: "search, e-mail fragment",
      queries: samples.map((row) => ({ q: row.email.split("@")[0].slice(-9) })),
    },
    {
      key: "filter-level-status",
      label: "filter, level + status",
      queries: [
        { level: "hot", status: "contacted" },
        { level: "warm", status: "new" },
        { level: "cold", status: "lost" },
        { level: "hot", status: "converted", sort: "puntaje" },
        // A mix that matches few or no leads: the worst case for "newest first, stop after 25".
        { level: "hot", status: "lost", source: "social", treatment: "evaluacion", assignee: "sin-asignar" },
      ],
    },
    {
      key: "filter-assignee",
      label: "filter, assignee",
      queries: [
        { assignee: "mios" },
        { assignee: "sin-asignar" },
        { assignee: "bench-asesor-1", sort: "contacto" },
        { assignee: "mios", source: "whatsapp", treatment: "implantes" },
      ],
    },
    {
      key: "page-deep",
      label: "page, deep",
      queries: [{ page: "40" }, { page: "200" }, { page: "400" }, { page: "150", sort: "puntaje" }],
    },
  ];

  const timeOne = async (url) => {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return performance.now() - started;
  };

  const rows = {};
  const figures = [];
  for (const type of types) {
    const urls = type.queries.map(
      (query) => `${server.base}/funnel.data?${new URLSearchParams({ tab: "leads", ...query })}`,
    );
    for (let i = 0; i < Math.min(20, urls.length * 2); i++) await timeOne(urls[i % urls.length]); // warm-up
    const latencies = [];
    const byQuery = new Map();
    for (let i = 0; i < requests; i++) {
      const url = urls[i % urls.length];
      const ms = await timeOne(url);
      latencies.push(ms);
      byQuery.set(url, Math.max(byQuery.get(url) ?? 0, ms));
    }
    // BENCH_DETAIL=1: the slowest query of each type and its worst time.
    if (process.env.BENCH_DETAIL) {
      const [url, ms] = [...byQuery].toSorted((a, b) => b[1] - a[1])[0];
      console.log(`${type.key}: slowest ${round(ms)} ms ${decodeURIComponent(url.split("?")[1])}`);
    }
    latencies.sort((a, b) => a - b);
    const p50 = round(percentile(latencies, 50));
    const p95 = round(percentile(latencies, 95));
    rows[type.label] = {
      queries: urls.length,
      requests,
      "p50 ms": p50,
      "p95 ms": p95,
      "max ms": round(latencies.at(-1)),
    };
    figures.push(
      figure(`${type.key} p50`, p50, "ms"),
      figure(`${type.key} p95`, p95, "ms", { max: P95_BUDGET_MS }),
    );
  }

  // 4. The CSV export of every lead, with the server's resident memory sampled every 20 ms.
  const rss = () => {
    const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  };
  const rssBefore = rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rss());
  }, 20);
  const exportStarted = performance.now();
  const response = await fetch(`${server.base}/funnel/leads.csv?tab=leads`, { headers: { cookie } });
  if (!response.ok) throw new Error(`export answered ${response.status}`);
  let bytes = 0;
  let lines = 0;
  const decoder = new TextDecoder();
  let previous = "";
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    const text = decoder.decode(chunk, { stream: true });
    // A CRLF may be split between two chunks.
    lines += (previous.endsWith("\r") && text.startsWith("\n") ? 1 : 0) + text.split("\r\n").length - 1;
    previous = text;
  }
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rss());

  console.log(
    `\n${count.toLocaleString("en")} leads seeded in ${round(seedMs / 1000)} s; ${requests} requests per type, ` +
      "one at a time, rotating through the type's queries (.data = session, counters, count and page)",
  );
  console.table(rows);
  console.log(
    `CSV export: ${lines - 1} rows, ${round(bytes / 1024 / 1024)} MiB in ${round(exportSeconds)} s; server RSS ` +
      `${Math.round(rssBefore)} MiB before, peak ${Math.round(rssPeak)} MiB during the export`,
  );
  if (lines - 1 !== count) throw new Error(`export had ${lines - 1} data rows for ${count} leads`);
  figures.push(
    figure("export seconds", round(exportSeconds), "s"),
    figure("export rows", lines - 1, "rows"),
    figure("export MiB", round(bytes / 1024 / 1024), "MiB"),
    figure("server RSS before export", Math.round(rssBefore), "MiB"),
    figure("server RSS peak during export", Math.round(rssPeak), "MiB"),
  );
  emitFigures("leads", figures, {
    leads: count,
    requestsPerType: requests,
    seedSeconds: round(seedMs / 1000),
  });
} finally {
  await server.stop();
  // BENCH_KEEP_DATA=1 keeps the seeded directory (to EXPLAIN the queries on it).
  if (process.env.BENCH_KEEP_DATA) console.log(`data kept in ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
