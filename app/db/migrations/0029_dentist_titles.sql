-- Issue 24 (ADR 044): a dentist's title, recorded by an admin ("dr", "dra"); null names the dentist without one.
ALTER TABLE "users" ADD COLUMN "professional_title" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_professional_title_values" CHECK ("users"."professional_title" in ('dr', 'dra'));