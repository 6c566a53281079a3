CREATE TABLE "consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"lead_id" uuid,
	"chat_guest_id" uuid,
	"email" text,
	"phone" text,
	"purpose" text NOT NULL,
	"text_version" text NOT NULL,
	"channel" text NOT NULL,
	"given_at" timestamp with time zone NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"withdrawn_channel" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consents_purpose_values" CHECK ("consents"."purpose" in ('datos_contacto', 'recordatorios_whatsapp', 'marketing', 'chat_ia')),
	CONSTRAINT "consents_channel_values" CHECK ("consents"."channel" in ('formulario_web', 'asistente', 'registro', 'perfil', 'mis_datos', 'chat', 'whatsapp', 'clinica', 'solicitud', 'migracion')),
	CONSTRAINT "consents_withdrawn_channel_values" CHECK ("consents"."withdrawn_channel" is null or "consents"."withdrawn_channel" in ('formulario_web', 'asistente', 'registro', 'perfil', 'mis_datos', 'chat', 'whatsapp', 'clinica', 'solicitud', 'migracion')),
	CONSTRAINT "consents_subject" CHECK ("consents"."user_id" is not null or "consents"."email" is not null or "consents"."phone" is not null or "consents"."chat_guest_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "data_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"step" text,
	"file_name" text,
	"file" "bytea",
	"bytes" integer,
	"sha256" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"download_count" integer DEFAULT 0 NOT NULL,
	"last_downloaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_exports_status_values" CHECK ("data_exports"."status" in ('queued', 'running', 'ready', 'failed', 'expired')),
	CONSTRAINT "data_exports_progress_range" CHECK ("data_exports"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"period" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"summary" jsonb,
	CONSTRAINT "job_runs_job_period_pk" PRIMARY KEY("job","period")
);
--> statement-breakpoint
CREATE TABLE "privacy_incident_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"incident_id" uuid NOT NULL,
	"user_id" text,
	"email" text,
	"phone" text,
	"channel" text NOT NULL,
	"outbox_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_incident_notices_channel_values" CHECK ("privacy_incident_notices"."channel" in ('email', 'whatsapp'))
);
--> statement-breakpoint
CREATE TABLE "privacy_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"occurred_at" timestamp with time zone,
	"discovered_at" timestamp with time zone NOT NULL,
	"data_categories" text NOT NULL,
	"sensitive_data" boolean DEFAULT false NOT NULL,
	"people_affected" integer,
	"affected_description" text DEFAULT '' NOT NULL,
	"measures" text DEFAULT '' NOT NULL,
	"agency_notified_at" timestamp with time zone,
	"people_notified_at" timestamp with time zone,
	"notification_text" text,
	"notification_approved_by" text,
	"status" text DEFAULT 'open' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_incidents_status_values" CHECK ("privacy_incidents"."status" in ('open', 'closed')),
	CONSTRAINT "privacy_incidents_people" CHECK ("privacy_incidents"."people_affected" is null or "privacy_incidents"."people_affected" >= 0)
);
--> statement-breakpoint
CREATE TABLE "privacy_request_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"actor_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privacy_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"right" text NOT NULL,
	"channel" text NOT NULL,
	"user_id" text,
	"name" text DEFAULT '' NOT NULL,
	"email" text,
	"phone" text,
	"rut" text,
	"details" text DEFAULT '' NOT NULL,
	"blocking_requested" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"verified_via" text,
	"verified_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"due_at" timestamp with time zone,
	"extended_at" timestamp with time zone,
	"extension_reason" text,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"decision_reason" text,
	"outcome" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_requests_submission_id_unique" UNIQUE("submission_id"),
	CONSTRAINT "privacy_requests_right_values" CHECK ("privacy_requests"."right" in ('acceso', 'portabilidad', 'rectificacion', 'supresion', 'oposicion', 'decisiones_automatizadas', 'bloqueo')),
	CONSTRAINT "privacy_requests_channel_values" CHECK ("privacy_requests"."channel" in ('cuenta', 'publico', 'clinica')),
	CONSTRAINT "privacy_requests_status_values" CHECK ("privacy_requests"."status" in ('unverified', 'received', 'in_progress', 'approved', 'partially_approved', 'refused', 'withdrawn', 'expired')),
	CONSTRAINT "privacy_requests_verified_via_values" CHECK ("privacy_requests"."verified_via" is null or "privacy_requests"."verified_via" in ('session', 'email', 'whatsapp')),
	CONSTRAINT "privacy_requests_contact" CHECK ("privacy_requests"."email" is not null or "privacy_requests"."phone" is not null or "privacy_requests"."user_id" is not null),
	CONSTRAINT "privacy_requests_clock" CHECK ("privacy_requests"."status" in ('unverified', 'expired') or ("privacy_requests"."received_at" is not null and "privacy_requests"."due_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "privacy_restrictions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"user_id" text,
	"email" text,
	"phone" text,
	"request_id" uuid,
	"reason" text DEFAULT '' NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_restrictions_kind_values" CHECK ("privacy_restrictions"."kind" in ('perfilamiento', 'marketing', 'bloqueo')),
	CONSTRAINT "privacy_restrictions_subject" CHECK ("privacy_restrictions"."user_id" is not null or "privacy_restrictions"."email" is not null or "privacy_restrictions"."phone" is not null)
);
--> statement-breakpoint
CREATE TABLE "privacy_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"method" text NOT NULL,
	"secret_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_verifications_method_values" CHECK ("privacy_verifications"."method" in ('email', 'whatsapp')),
	CONSTRAINT "privacy_verifications_attempts" CHECK ("privacy_verifications"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "profiling_objected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_chat_guest_id_chat_guests_id_fk" FOREIGN KEY ("chat_guest_id") REFERENCES "public"."chat_guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_incident_notices" ADD CONSTRAINT "privacy_incident_notices_incident_id_privacy_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."privacy_incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_incident_notices" ADD CONSTRAINT "privacy_incident_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_incident_notices" ADD CONSTRAINT "privacy_incident_notices_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_incidents" ADD CONSTRAINT "privacy_incidents_notification_approved_by_users_id_fk" FOREIGN KEY ("notification_approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_incidents" ADD CONSTRAINT "privacy_incidents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_request_events" ADD CONSTRAINT "privacy_request_events_request_id_privacy_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."privacy_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_request_events" ADD CONSTRAINT "privacy_request_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_restrictions" ADD CONSTRAINT "privacy_restrictions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_restrictions" ADD CONSTRAINT "privacy_restrictions_request_id_privacy_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."privacy_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_restrictions" ADD CONSTRAINT "privacy_restrictions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_verifications" ADD CONSTRAINT "privacy_verifications_request_id_privacy_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."privacy_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_user_purpose_idx" ON "consents" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "consents_email_purpose_idx" ON "consents" USING btree (lower("email"),"purpose");--> statement-breakpoint
CREATE INDEX "consents_phone_purpose_idx" ON "consents" USING btree ("phone","purpose");--> statement-breakpoint
CREATE INDEX "consents_lead_idx" ON "consents" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "data_exports_user_idx" ON "data_exports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "data_exports_status_idx" ON "data_exports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "privacy_incident_notices_incident_idx" ON "privacy_incident_notices" USING btree ("incident_id");--> statement-breakpoint
CREATE INDEX "privacy_incidents_discovered_idx" ON "privacy_incidents" USING btree ("discovered_at");--> statement-breakpoint
CREATE INDEX "privacy_request_events_request_idx" ON "privacy_request_events" USING btree ("request_id","at");--> statement-breakpoint
CREATE INDEX "privacy_requests_status_due_idx" ON "privacy_requests" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "privacy_requests_user_idx" ON "privacy_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "privacy_requests_email_idx" ON "privacy_requests" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "privacy_requests_phone_idx" ON "privacy_requests" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "privacy_restrictions_user_idx" ON "privacy_restrictions" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "privacy_restrictions_email_idx" ON "privacy_restrictions" USING btree (lower("email"),"kind");--> statement-breakpoint
CREATE INDEX "privacy_restrictions_phone_idx" ON "privacy_restrictions" USING btree ("phone","kind");--> statement-breakpoint
CREATE INDEX "privacy_verifications_request_idx" ON "privacy_verifications" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "privacy_verifications_secret_idx" ON "privacy_verifications" USING btree ("secret_hash");--> statement-breakpoint
-- The consent ledger starts with the consents the product already recorded (ADR 037): version 'v1' of each text is
-- the one shown before the ledger existed (app/domain/consent-texts.ts keeps it).
INSERT INTO "consents" ("lead_id", "email", "phone", "purpose", "text_version", "channel", "given_at")
SELECT "id", lower("email"), "phone", 'datos_contacto', 'v1',
       CASE WHEN "source" = 'asistente' THEN 'asistente' ELSE 'formulario_web' END, "consent_at"
FROM "leads";
--> statement-breakpoint
INSERT INTO "consents" ("user_id", "purpose", "text_version", "channel", "given_at")
SELECT "id", 'recordatorios_whatsapp', 'v1', 'perfil', "whatsapp_opt_in_at"
FROM "users" WHERE "whatsapp_opt_in_at" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "consents" ("user_id", "chat_guest_id", "purpose", "text_version", "channel", "given_at")
SELECT g."external_id", r."guest_id", 'chat_ia', r."ai_consent_version", 'chat', min(r."ai_consent_at")
FROM "chat_rooms" r JOIN "chat_guests" g ON g."id" = r."guest_id"
WHERE r."ai_consent_at" IS NOT NULL
GROUP BY g."external_id", r."guest_id", r."ai_consent_version";
