CREATE TABLE "dentalink_dentist_links" (
	"dentist_id" text PRIMARY KEY NOT NULL,
	"dentalink_dentist_id" text,
	"source" text NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dentalink_dentist_links_source_values" CHECK ("dentalink_dentist_links"."source" in ('name', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "dentalink_dentist_links" ADD CONSTRAINT "dentalink_dentist_links_dentist_id_users_id_fk" FOREIGN KEY ("dentist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dentalink_dentist_links" ADD CONSTRAINT "dentalink_dentist_links_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dentalink_dentist_links_dentalink_id_unique" ON "dentalink_dentist_links" USING btree ("dentalink_dentist_id") WHERE "dentalink_dentist_links"."dentalink_dentist_id" is not null;