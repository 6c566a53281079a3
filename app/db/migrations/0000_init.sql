CREATE TABLE "callback_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"preferred_time" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "callback_requests_submission_id_unique" UNIQUE("submission_id"),
	CONSTRAINT "callback_requests_status_values" CHECK ("callback_requests"."status" in ('new', 'in_progress', 'done'))
);
--> statement-breakpoint
CREATE TABLE "data_rights_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"request_type" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"rut" text,
	"details" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_rights_requests_submission_id_unique" UNIQUE("submission_id"),
	CONSTRAINT "data_rights_requests_status_values" CHECK ("data_rights_requests"."status" in ('new', 'in_progress', 'done')),
	CONSTRAINT "data_rights_requests_type_values" CHECK ("data_rights_requests"."request_type" in ('acceso', 'rectificacion', 'eliminacion', 'portabilidad', 'oposicion'))
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"treatment" text NOT NULL,
	"urgency" text NOT NULL,
	"budget" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"score" integer NOT NULL,
	"level" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"source" text NOT NULL,
	"consent_at" timestamp with time zone NOT NULL,
	"last_contact_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_submission_id_unique" UNIQUE("submission_id"),
	CONSTRAINT "leads_score_range" CHECK ("leads"."score" between 0 and 100),
	CONSTRAINT "leads_level_values" CHECK ("leads"."level" in ('hot', 'warm', 'cold')),
	CONSTRAINT "leads_status_values" CHECK ("leads"."status" in ('new', 'contacted', 'qualified', 'scheduled', 'converted', 'lost'))
);
--> statement-breakpoint
CREATE INDEX "callback_requests_created_at_idx" ON "callback_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "data_rights_requests_created_at_idx" ON "data_rights_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "leads_created_at_idx" ON "leads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "leads_level_idx" ON "leads" USING btree ("level");