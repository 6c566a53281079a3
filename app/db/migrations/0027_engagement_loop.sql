CREATE TABLE "clinic_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "freed_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dentist_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"source_appointment_id" uuid,
	"freed_by_patient_id" text,
	"created_by" text,
	"status" text DEFAULT 'abierta' NOT NULL,
	"next_batch_at" timestamp with time zone DEFAULT now() NOT NULL,
	"batches_sent" integer DEFAULT 0 NOT NULL,
	"taken_appointment_id" uuid,
	"taken_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "freed_slots_reason_values" CHECK ("freed_slots"."reason" in ('cancelacion', 'reagendamiento', 'pago_vencido', 'manual')),
	CONSTRAINT "freed_slots_status_values" CHECK ("freed_slots"."status" in ('abierta', 'tomada', 'cerrada')),
	CONSTRAINT "freed_slots_ends_after_start" CHECK ("freed_slots"."ends_at" > "freed_slots"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "waitlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" text NOT NULL,
	"treatment_id" integer NOT NULL,
	"dentist_id" text,
	"appointment_id" uuid,
	"weekdays" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"day_parts" text[] NOT NULL,
	"earliest_date" date NOT NULL,
	"until_date" date NOT NULL,
	"status" text DEFAULT 'activa' NOT NULL,
	"status_changed_at" timestamp with time zone,
	"fulfilled_appointment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entries_status_values" CHECK ("waitlist_entries"."status" in ('activa', 'cumplida', 'retirada', 'vencida')),
	CONSTRAINT "waitlist_entries_day_parts_values" CHECK (cardinality("waitlist_entries"."day_parts") > 0 and "waitlist_entries"."day_parts" <@ array['manana', 'tarde']::text[]),
	CONSTRAINT "waitlist_entries_dates" CHECK ("waitlist_entries"."until_date" >= "waitlist_entries"."earliest_date")
);
--> statement-breakpoint
CREATE TABLE "waitlist_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slot_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"patient_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"batch" integer NOT NULL,
	"status" text DEFAULT 'enviada' NOT NULL,
	"sent_by" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"appointment_id" uuid,
	CONSTRAINT "waitlist_offers_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "waitlist_offers_status_values" CHECK ("waitlist_offers"."status" in ('enviada', 'tomada', 'perdida'))
);
--> statement-breakpoint
CREATE TABLE "form_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid NOT NULL,
	"patient_id" text NOT NULL,
	"form_slug" text NOT NULL,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"draft" jsonb,
	"draft_version" integer,
	"draft_saved_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_assignments_status_values" CHECK ("form_assignments"."status" in ('pendiente', 'completado', 'anulado'))
);
--> statement-breakpoint
CREATE TABLE "form_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"treatment_slugs" text[] DEFAULT '{}'::text[] NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "form_definitions_kind_values" CHECK ("form_definitions"."kind" in ('antecedentes', 'consentimiento'))
);
--> statement-breakpoint
CREATE TABLE "form_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"assignment_id" uuid,
	"appointment_id" uuid,
	"patient_id" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"answers" jsonb NOT NULL,
	"signature_png" "bytea",
	"pdf" "bytea" NOT NULL,
	"pdf_sha256" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"supersedes_id" uuid,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointment_action_tokens" DROP CONSTRAINT "appointment_action_tokens_action_values";--> statement-breakpoint
ALTER TABLE "appointment_reminders" DROP CONSTRAINT "appointment_reminders_appointment_id_starts_at_pk";--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "no_show_marked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "no_show_marked_by" text;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD COLUMN "source" text DEFAULT 'formulario' NOT NULL;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD COLUMN "appointment_id" uuid;--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD COLUMN "step" text DEFAULT '24h' NOT NULL;--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD CONSTRAINT "appointment_reminders_appointment_id_starts_at_step_pk" PRIMARY KEY("appointment_id","starts_at","step");--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD COLUMN "mail_outbox_id" uuid;--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD COLUMN "skipped" text;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD CONSTRAINT "clinic_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freed_slots" ADD CONSTRAINT "freed_slots_dentist_id_users_id_fk" FOREIGN KEY ("dentist_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freed_slots" ADD CONSTRAINT "freed_slots_source_appointment_id_appointments_id_fk" FOREIGN KEY ("source_appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freed_slots" ADD CONSTRAINT "freed_slots_freed_by_patient_id_users_id_fk" FOREIGN KEY ("freed_by_patient_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freed_slots" ADD CONSTRAINT "freed_slots_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freed_slots" ADD CONSTRAINT "freed_slots_taken_appointment_id_appointments_id_fk" FOREIGN KEY ("taken_appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_treatment_id_treatments_id_fk" FOREIGN KEY ("treatment_id") REFERENCES "public"."treatments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_dentist_id_users_id_fk" FOREIGN KEY ("dentist_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_fulfilled_appointment_id_appointments_id_fk" FOREIGN KEY ("fulfilled_appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_slot_id_freed_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."freed_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_assignments" ADD CONSTRAINT "form_assignments_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_assignments" ADD CONSTRAINT "form_assignments_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_assignment_id_form_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."form_assignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_definition_id_form_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."form_definitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "freed_slots_open_idx" ON "freed_slots" USING btree ("status","next_batch_at");--> statement-breakpoint
CREATE INDEX "freed_slots_starts_idx" ON "freed_slots" USING btree ("starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "freed_slots_one_open" ON "freed_slots" USING btree ("dentist_id","starts_at") WHERE "freed_slots"."status" = 'abierta';--> statement-breakpoint
CREATE INDEX "waitlist_entries_patient_idx" ON "waitlist_entries" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "waitlist_entries_active_idx" ON "waitlist_entries" USING btree ("status","treatment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_slot_entry" ON "waitlist_offers" USING btree ("slot_id","entry_id");--> statement-breakpoint
CREATE INDEX "waitlist_offers_patient_idx" ON "waitlist_offers" USING btree ("patient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "form_assignments_appointment_form" ON "form_assignments" USING btree ("appointment_id","form_slug");--> statement-breakpoint
CREATE INDEX "form_assignments_patient_idx" ON "form_assignments" USING btree ("patient_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "form_definitions_slug_version" ON "form_definitions" USING btree ("slug","version");--> statement-breakpoint
CREATE INDEX "form_submissions_patient_idx" ON "form_submissions" USING btree ("patient_id","submitted_at");--> statement-breakpoint
CREATE INDEX "form_submissions_appointment_idx" ON "form_submissions" USING btree ("appointment_id");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_show_marked_by_users_id_fk" FOREIGN KEY ("no_show_marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD CONSTRAINT "callback_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD CONSTRAINT "callback_requests_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD CONSTRAINT "callback_requests_source_values" CHECK ("callback_requests"."source" in ('formulario', 'recordatorio'));--> statement-breakpoint
ALTER TABLE "appointment_action_tokens" ADD CONSTRAINT "appointment_action_tokens_action_values" CHECK ("appointment_action_tokens"."action" in ('confirm', 'cancel', 'callback'));--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD CONSTRAINT "appointment_reminders_step_values" CHECK ("appointment_reminders"."step" in ('48h', '24h', '2h'));--> statement-breakpoint
-- The confirmation rate counts confirmations from now on; an appointment already confirmed was confirmed by its last change.
UPDATE "appointments" SET "confirmed_at" = "updated_at" WHERE "status" = 'confirmed' AND "confirmed_at" IS NULL;--> statement-breakpoint
-- A submitted form is a signed record (Ley 20.584 art. 14): it never changes; a new answer is a new row.
CREATE FUNCTION "form_submissions_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'form_submissions rows are immutable' USING ERRCODE = 'check_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "form_submissions_no_update" BEFORE UPDATE ON "form_submissions" FOR EACH ROW EXECUTE FUNCTION "form_submissions_immutable"();
