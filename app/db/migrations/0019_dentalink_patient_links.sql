CREATE TABLE "dentalink_patient_links" (
	"user_id" text PRIMARY KEY NOT NULL,
	"dentalink_patient_id" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dentalink_patient_links_source_values" CHECK ("dentalink_patient_links"."source" in ('binding', 'email', 'created'))
);
--> statement-breakpoint
ALTER TABLE "dentalink_patient_links" ADD CONSTRAINT "dentalink_patient_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;