-- The lead list at clinic scale (issue 13, DESIGN decision 19, ADR 027). The three extensions ship with PGlite (loaded
-- in PGlite.create) and with PostgreSQL's contrib; all are "trusted", so a database owner may create them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so it cannot appear in a generated column or an index.
-- With the dictionary named explicitly the result depends on the argument alone: this wrapper may say IMMUTABLE.
CREATE OR REPLACE FUNCTION f_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
CREATE TABLE "lead_tallies" (
	"level" text NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "lead_tallies_level_status_pk" PRIMARY KEY("level","status")
);
--> statement-breakpoint
DROP INDEX "leads_created_at_idx";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "search_text" text GENERATED ALWAYS AS (f_unaccent(lower(name || ' ' || coalesce(email, ''))) || ' ' || regexp_replace(phone, '[^0-9]', '', 'g')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "leads_created_at_id_idx" ON "leads" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "leads_search_text_trgm_idx" ON "leads" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_filters_gin_idx" ON "leads" USING gin ("level","status","source","treatment","assigned_to");--> statement-breakpoint
CREATE INDEX "leads_score_created_at_id_idx" ON "leads" USING btree ("score","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_last_contact_sort_idx" ON "leads" USING btree (coalesce("last_contact_at", '-infinity'::timestamptz),"created_at","id");--> statement-breakpoint
-- lead_tallies stays exact: every insert, delete and change of level or status adjusts its (level, status) row in the
-- same transaction as the change; a TRUNCATE empties it.
CREATE OR REPLACE FUNCTION lead_tallies_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM lead_tallies;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE lead_tallies SET n = n - 1 WHERE level = OLD.level AND status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO lead_tallies (level, status, n) VALUES (NEW.level, NEW.status, 1)
    ON CONFLICT (level, status) DO UPDATE SET n = lead_tallies.n + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER leads_tallies AFTER INSERT OR DELETE OR UPDATE OF level, status ON leads
  FOR EACH ROW EXECUTE FUNCTION lead_tallies_apply();--> statement-breakpoint
CREATE TRIGGER leads_tallies_truncate AFTER TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION lead_tallies_apply();--> statement-breakpoint
INSERT INTO lead_tallies (level, status, n) SELECT level, status, count(*) FROM leads GROUP BY level, status;
