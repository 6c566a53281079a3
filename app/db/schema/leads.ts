import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { timestamps } from "./columns";

/** A prospective patient captured by the landing form or the guided assistant. */
export const leads = pgTable(
  "leads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Generated when the form is rendered; a double submit carries the same id and creates nothing new. */
    submissionId: uuid("submission_id").notNull().unique(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    email: text("email"),
    treatment: text("treatment").notNull(),
    urgency: text("urgency").notNull(),
    budget: text("budget").notNull(),
    message: text("message").notNull().default(""),
    score: integer("score").notNull(),
    level: text("level").notNull(),
    reasons: jsonb("reasons").$type<string[]>().notNull(),
    status: text("status").notNull().default("new"),
    source: text("source").notNull(),
    consentAt: timestamp("consent_at", { withTimezone: true }).notNull(),
    /**
     * The person objected to profiling (Ley 21.719 art. 8 bis, ADR 037): the lead is not scored or prioritised
     * automatically; staff see "Sin puntaje: la persona se opuso al perfilamiento".
     */
    profilingObjectedAt: timestamp("profiling_objected_at", { withTimezone: true }),
    lastContactAt: timestamp("last_contact_at", { withTimezone: true }),
    /** The first time staff contacted the lead: 'Tiempo Respuesta' is measured from creation to this (ADR 026). */
    firstContactAt: timestamp("first_contact_at", { withTimezone: true }),
    /** The asesor who owns the lead (round-robin at creation, an admin can reassign: ADR 025). */
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** Why a lead was marked lost (one of the pipeline's reasons); null unless status is 'lost'. */
    lostReason: text("lost_reason"),
    /** The last time the same person asked again while this lead was open (a merged duplicate, ADR 025). */
    resubmittedAt: timestamp("resubmitted_at", { withTimezone: true }),
    /**
     * The furthest funnel stage the lead has reached (ADR 025/026): 0 new, 1 contacted, 2 qualified,
     * 3 scheduled, 4 converted. Never goes down (a lost lead keeps the stage it reached), so the funnel's stages are
     * cumulative. Kept by the trigger `leads_furthest_stage` on every insert and status or first-contact change.
     */
    furthestStage: smallint("furthest_stage").notNull().default(0),
    ...timestamps,
    /**
     * What the panel's search matches (ADR 027, DESIGN decision 19): the name and e-mail folded to lower case without
     * accents, and the phone as bare digits, so 'gonzalez' finds 'González' and '9 1234-5678' finds '+56912345678'.
     * `f_unaccent` is the IMMUTABLE wrapper of unaccent() created by migration 0013.
     */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`f_unaccent(lower(name || ' ' || coalesce(email, ''))) || ' ' || regexp_replace(phone, '[^0-9]', '', 'g')`,
      ),
  },
  (table) => [
    // Newest first with a total order; (created_at, id) lets a deep page be an index-only scan.
    index("leads_created_at_id_idx").on(table.createdAt, table.id),
    // Trigram index behind the per-word `search_text LIKE '%word%'` conditions (pg_trgm, migration 0013).
    index("leads_search_text_trgm_idx").using("gin", table.searchText.op("gin_trgm_ops")),
    // The panel's sort orders, each newest first within its key.
    // Any mix of the panel's equality filters in one index (btree_gin, migration 0013): GIN intersects the posting
    // lists, so a combination that matches few or no leads is found without a scan.
    index("leads_filters_gin_idx").using(
      "gin",
      table.level,
      table.status,
      table.source,
      table.treatment,
      table.assignedTo,
    ),
    index("leads_score_created_at_id_idx").on(table.score, table.createdAt, table.id),
    index("leads_last_contact_sort_idx").on(
      sql`coalesce(${table.lastContactAt}, '-infinity'::timestamptz)`,
      table.createdAt,
      table.id,
    ),
    index("leads_assigned_to_idx").on(table.assignedTo, table.createdAt),
    index("leads_level_idx").on(table.level),
    // A new request is merged into the open lead with the same e-mail (any case) or phone (ADR 025).
    index("leads_open_email_idx")
      .on(sql`lower(${table.email})`)
      .where(sql`${table.status} not in ('converted', 'lost') and ${table.email} is not null`),
    // An inbound WhatsApp message is filed under the latest lead with its number.
    index("leads_phone_idx").on(table.phone, table.createdAt),
    check("leads_score_range", sql`${table.score} between 0 and 100`),
    check("leads_furthest_stage_range", sql`${table.furthestStage} between 0 and 4`),
    check("leads_level_values", sql`${table.level} in ('hot', 'warm', 'cold')`),
    check(
      "leads_status_values",
      sql`${table.status} in ('new', 'contacted', 'qualified', 'scheduled', 'converted', 'lost')`,
    ),
  ],
);

/**
 * How many leads there are per level and status, kept exact by a trigger on `leads` (migration 0013), so the panel's
 * counters and the count of a level/status view never scan 100,000 leads.
 */
export const leadTallies = pgTable(
  "lead_tallies",
  {
    level: text("level").notNull(),
    status: text("status").notNull(),
    n: integer("n").notNull(),
  },
  (table) => [primaryKey({ columns: [table.level, table.status] })],
);
