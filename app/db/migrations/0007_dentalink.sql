CREATE TABLE "dentalink_mock_appointments" (
	"id" integer PRIMARY KEY NOT NULL,
	"record" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dentalink_mock_patients" (
	"id" integer PRIMARY KEY NOT NULL,
	"record" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dentalink_syncs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"actor_id" text,
	"lead_id" uuid,
	"mode" text NOT NULL,
	"request" jsonb NOT NULL,
	"outcome" text DEFAULT 'processing' NOT NULL,
	"patient_id" text,
	"patient_reused" boolean,
	"matched_by" text,
	"appointment_id" text,
	"message" text,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "dentalink_syncs_submission_id_unique" UNIQUE("submission_id"),
	CONSTRAINT "dentalink_syncs_outcome_values" CHECK ("dentalink_syncs"."outcome" in ('processing', 'success', 'failed')),
	CONSTRAINT "dentalink_syncs_mode_values" CHECK ("dentalink_syncs"."mode" in ('live', 'mock'))
);
--> statement-breakpoint
ALTER TABLE "dentalink_syncs" ADD CONSTRAINT "dentalink_syncs_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dentalink_syncs" ADD CONSTRAINT "dentalink_syncs_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dentalink_syncs_created_at_idx" ON "dentalink_syncs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "dentalink_syncs_lead_idx" ON "dentalink_syncs" USING btree ("lead_id");