-- Lead search (issue 13, DESIGN decision 19). Both extensions ship with PGlite (loaded in PGlite.create) and with
-- PostgreSQL's contrib; both are "trusted", so a database owner may create them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so it cannot appear in a generated column or an index.
-- With the dictionary named explicitly the result depends on the argument alone: this wrapper may say IMMUTABLE.
CREATE OR REPLACE FUNCTION f_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "search_text" text GENERATED ALWAYS AS (f_unaccent(lower(name || ' ' || coalesce(email, ''))) || ' ' || regexp_replace(phone, '[^0-9]', '', 'g')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "leads_search_text_trgm_idx" ON "leads" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_status_created_at_idx" ON "leads" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "leads_score_created_at_idx" ON "leads" USING btree ("score","created_at");--> statement-breakpoint
CREATE INDEX "leads_last_contact_sort_idx" ON "leads" USING btree (coalesce("last_contact_at", '-infinity'::timestamptz),"created_at");