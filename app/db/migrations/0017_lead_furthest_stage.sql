ALTER TABLE "leads" ADD COLUMN "furthest_stage" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "whatsapp_messages_lead_id_created_at_idx" ON "whatsapp_messages" USING btree ("lead_id","created_at");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_furthest_stage_range" CHECK ("leads"."furthest_stage" between 0 and 4);--> statement-breakpoint
-- Issue 13 (ADR 025, 026): the funnel's stages are cumulative. `furthest_stage` is the furthest stage a lead has
-- reached (0 new, 1 contacted, 2 qualified, 3 scheduled, 4 converted; `lost` reaches nothing) and never goes down,
-- whatever code changes `leads.status`: a trigger keeps it, so the pipeline, the Dentalink sync, the seed and any
-- later writer agree. A recorded first contact counts as reaching 'contacted'. drizzle-kit does not model
-- functions or triggers, so they are written here by hand.
CREATE FUNCTION "lead_stage_rank"(status text) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE status
    WHEN 'contacted' THEN 1
    WHEN 'qualified' THEN 2
    WHEN 'scheduled' THEN 3
    WHEN 'converted' THEN 4
    ELSE 0
  END)::smallint
$$;--> statement-breakpoint
CREATE FUNCTION "leads_keep_furthest_stage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.furthest_stage := greatest(
    coalesce(NEW.furthest_stage, 0),
    CASE WHEN TG_OP = 'UPDATE' THEN OLD.furthest_stage ELSE 0 END,
    lead_stage_rank(NEW.status),
    CASE WHEN NEW.first_contact_at IS NOT NULL THEN 1 ELSE 0 END
  );
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "leads_furthest_stage" BEFORE INSERT OR UPDATE ON "leads" FOR EACH ROW EXECUTE FUNCTION "leads_keep_furthest_stage"();--> statement-breakpoint
-- Backfill: the current status, a recorded first contact, and every status the lead's history says it reached (a
-- lost lead's earlier stages).
UPDATE "leads" SET "furthest_stage" = greatest(
  lead_stage_rank("leads"."status"),
  CASE WHEN "leads"."first_contact_at" IS NOT NULL THEN 1 ELSE 0 END,
  coalesce((
    SELECT max(lead_stage_rank(h."details"->>'to'))
    FROM "lead_history" h
    WHERE h."lead_id" = "leads"."id" AND h."kind" = 'status'
  ), 0)
);
