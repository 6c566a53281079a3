import { sql } from "drizzle-orm";
import { closeDb, getDb } from "~/db/client.server";
import { addDays, clinicDate, clinicInstant, isoWeekday } from "~/domain/clinic-time";
import { runRemindersOnce } from "~/jobs/reminders.server";
import { runWaitlistOnce } from "~/jobs/waitlist.server";

async function timed<T>(run: () => Promise<T>) {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

/**
 * `npm run bench:reminders` (scripts/bench-reminders.mjs; DESIGN §5: "one pass over 10,000 appointments and 1,000
 * waitlist entries ≤ 2 s on PGlite"). Seeds a throw-away embedded database (DATA_DIR, set by the script) with
 * `appointments` appointments of `patients` patients who agreed to WhatsApp reminders, spread over the clinic's
 * working hours of the next `days` days, `entries` active waitlist entries and `slots` freed slots waiting for their
 * first batch; then times passes of the two jobs exactly as the app runs them: the first (a morning's due steps and
 * the first batch of every slot), and a second one right after (nothing new due: the idle cost of every 30 s).
 */
export async function benchRemindersPasses(options: {
  appointments: number;
  patients: number;
  entries: number;
  slots: number;
  days: number;
}) {
  const db = await getDb();
  // The passes run at noon of the next working day: the 2 h, 24 h and 48 h steps of the appointments around it are
  // due, as they are every working day at the clinic.
  let day = addDays(clinicDate(new Date()), 1);
  while (isoWeekday(day) > 5) day = addDays(day, 1);
  const now = clinicInstant(day, "12:00");
  const seedStarted = performance.now();
  await db.execute(sql`select setseed(0.23)`);
  await db.execute(sql`
    insert into users (id, first_name, last_name, email, email_verified, phone, whatsapp_opt_in_at)
    select 'bench-dentist-' || g, 'Dentista', 'Bench ' || g, 'bench-dentist-' || g || '@example.com', true, null, null
    from generate_series(1, 6) g`);
  await db.execute(sql`
    insert into user_roles (user_id, role_id)
    select 'bench-dentist-' || g, r.id from generate_series(1, 6) g, roles r where r.name = 'dentista'`);
  await db.execute(sql`
    insert into dentist_schedule_blocks (dentist_id, weekday, starts_at, ends_at)
    select 'bench-dentist-' || g, w, '09:00', '18:00' from generate_series(1, 6) g, generate_series(1, 5) w`);
  await db.execute(sql`
    insert into users (id, first_name, last_name, email, email_verified, phone, whatsapp_opt_in_at)
    select 'bench-patient-' || g, 'Paciente', 'Bench ' || g, 'bench-patient-' || g || '@example.com', true,
           '+569' || lpad((10000000 + g)::text, 8, '0'), now() - interval '30 days'
    from generate_series(1, ${options.patients}::int) g`);
  await db.execute(sql`
    insert into consents (user_id, phone, purpose, text_version, channel, given_at)
    select 'bench-patient-' || g, '+569' || lpad((10000000 + g)::text, 8, '0'), 'recordatorios_whatsapp', 'v1', 'perfil',
           now() - interval '30 days'
    from generate_series(1, ${options.patients}::int) g`);
  // Appointments: each dentist's day from 09:00 to 18:00 Santiago in 30-minute steps, weekdays, from 1 hour ahead;
  // every patient holds several, never two at once (the n-th appointment of the set goes to patient n mod patients,
  // and the slots are laid out so one patient's appointments are far apart).
  await db.execute(sql`
    with slots as (
      select (date_trunc('day', now() at time zone 'America/Santiago') + make_interval(days => d) + make_interval(mins => 540 + 30 * s))
               at time zone 'America/Santiago' as starts_at,
             dentist
      from generate_series(0, ${options.days}::int) d, generate_series(0, 17) s, generate_series(1, 6) dentist
      where extract(isodow from date_trunc('day', now() at time zone 'America/Santiago') + make_interval(days => d)) <= 5
    ), numbered as (
      select starts_at, dentist, row_number() over (order by starts_at, dentist) as n
      from slots where starts_at > now() + interval '1 hour'
    )
    insert into appointments (patient_id, dentist_id, treatment_id, starts_at, ends_at, duration_minutes, status)
    select 'bench-patient-' || (1 + (n % ${options.patients}::int)), 'bench-dentist-' || dentist,
           (select id from treatments where slug = 'consulta'), starts_at, starts_at + interval '30 minutes', 30,
           case when n % 5 = 0 then 'confirmed' else 'scheduled' end
    from numbered
    where n <= ${options.appointments}::int`);
  await db.execute(sql`
    insert into waitlist_entries (patient_id, treatment_id, dentist_id, weekdays, day_parts, earliest_date, until_date)
    select 'bench-patient-' || (1 + (g * 7) % ${options.patients}::int),
           (select id from treatments where slug = 'consulta'),
           case when g % 3 = 0 then 'bench-dentist-' || (1 + g % 6) end,
           case when g % 4 = 0 then '{1,3,5}'::smallint[] else '{}'::smallint[] end,
           case g % 3 when 0 then '{manana}'::text[] when 1 then '{tarde}'::text[] else '{manana,tarde}'::text[] end,
           (now() at time zone 'America/Santiago')::date,
           (now() at time zone 'America/Santiago')::date + 60
    from generate_series(1, ${options.entries}::int) g`);
  // Freed slots: cancel some appointments three or more days ahead, as a cancellation would leave them.
  await db.execute(sql`
    with picked as (
      select id, dentist_id, starts_at, ends_at, patient_id from appointments
      where starts_at > ${now.toISOString()}::timestamptz + interval '1 day' and status = 'scheduled'
      order by starts_at limit ${options.slots}::int
    ), cancelled as (
      update appointments a set status = 'cancelled', cancelled_at = now() from picked p where a.id = p.id
      returning a.id
    )
    insert into freed_slots (dentist_id, starts_at, ends_at, reason, source_appointment_id, freed_by_patient_id)
    select dentist_id, starts_at, ends_at, 'cancelacion', id, patient_id from picked`);
  const seedMs = performance.now() - seedStarted;
  const counted = (await db.execute(sql`
    select (select count(*) from appointments) as appointments,
           (select count(*) from waitlist_entries where status = 'activa') as entries,
           (select count(*) from freed_slots where status = 'abierta') as slots`)) as unknown as {
    rows: Array<{ appointments: number | string; entries: number | string; slots: number | string }>;
  };
  const sizes = counted.rows[0]!;

  const firstReminders = await timed(() => runRemindersOnce(now));
  const firstWaitlist = await timed(() => runWaitlistOnce(now));
  const idleReminders = await timed(() => runRemindersOnce(now));
  const idleWaitlist = await timed(() => runWaitlistOnce(now));
  const queued = (await db.execute(sql`select count(*) as n from outbox`)) as unknown as {
    rows: Array<{ n: number | string }>;
  };
  await closeDb();
  return {
    seedMs,
    sizes: {
      appointments: Number(sizes.appointments),
      entries: Number(sizes.entries),
      slots: Number(sizes.slots),
    },
    firstPass: { remindersMs: firstReminders.ms, waitlistMs: firstWaitlist.ms },
    idlePass: { remindersMs: idleReminders.ms, waitlistMs: idleWaitlist.ms },
    results: { reminders: firstReminders.result, waitlist: firstWaitlist.result },
    queuedMessages: Number(queued.rows[0]?.n ?? 0),
  };
}
