CREATE TABLE "staff_availability" (
	"user_id" text PRIMARY KEY NOT NULL,
	"away" boolean DEFAULT false NOT NULL,
	"last_assigned_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lead_history" DROP CONSTRAINT "lead_history_kind_values";--> statement-breakpoint
ALTER TABLE "lead_history" ADD COLUMN "actor_id" text;--> statement-breakpoint
ALTER TABLE "lead_history" ADD COLUMN "details" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_history" ADD COLUMN "submission_id" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "resubmitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_availability" ADD CONSTRAINT "staff_availability_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_history" ADD CONSTRAINT "lead_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_open_email_idx" ON "leads" USING btree (lower("email")) WHERE "leads"."status" not in ('converted', 'lost') and "leads"."email" is not null;--> statement-breakpoint
ALTER TABLE "lead_history" ADD CONSTRAINT "lead_history_submission_id_unique" UNIQUE("submission_id");--> statement-breakpoint
ALTER TABLE "lead_history" ADD CONSTRAINT "lead_history_kind_values" CHECK ("lead_history"."kind" in ('whatsapp-inbound', 'status', 'note', 'assignment', 'duplicate'));