CREATE TABLE "clinical_record_access" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"actor_role" text NOT NULL,
	"rut" text NOT NULL,
	"dentalink_patient_id" text,
	"resource" text NOT NULL,
	"resource_id" text,
	"reason" text,
	"outcome" text NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinical_record_access_resource_values" CHECK ("clinical_record_access"."resource" in ('paciente', 'citas', 'pagos', 'tratamientos', 'documentos', 'radiografias', 'archivo')),
	CONSTRAINT "clinical_record_access_outcome_values" CHECK ("clinical_record_access"."outcome" in ('ok', 'not_found', 'error')),
	CONSTRAINT "clinical_record_access_staff_reason" CHECK ("clinical_record_access"."actor_role" = 'paciente' or ("clinical_record_access"."reason" is not null and char_length("clinical_record_access"."reason") >= 10))
);
--> statement-breakpoint
CREATE TABLE "clinical_record_bindings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"dentalink_patient_id" text NOT NULL,
	"rut" text NOT NULL,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clinical_record_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"rut" text NOT NULL,
	"dentalink_patient_id" text,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinical_record_codes_attempts" CHECK ("clinical_record_codes"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "clinical_record_bindings" ADD CONSTRAINT "clinical_record_bindings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinical_record_codes" ADD CONSTRAINT "clinical_record_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clinical_record_access_rut_created_idx" ON "clinical_record_access" USING btree ("rut","created_at");--> statement-breakpoint
CREATE INDEX "clinical_record_access_created_idx" ON "clinical_record_access" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "clinical_record_bindings_patient_idx" ON "clinical_record_bindings" USING btree ("dentalink_patient_id");--> statement-breakpoint
CREATE INDEX "clinical_record_codes_user_created_idx" ON "clinical_record_codes" USING btree ("user_id","created_at");--> statement-breakpoint
-- The access register is append-only (Ley 20.584 art. 13, DESIGN §6): the database itself refuses to change or remove
-- a row, whatever the application does. drizzle-kit does not model triggers, so they are written here by hand.
CREATE FUNCTION "clinical_record_access_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'clinical_record_access is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "clinical_record_access_no_update_delete" BEFORE UPDATE OR DELETE ON "clinical_record_access" FOR EACH ROW EXECUTE FUNCTION "clinical_record_access_append_only"();--> statement-breakpoint
CREATE TRIGGER "clinical_record_access_no_truncate" BEFORE TRUNCATE ON "clinical_record_access" FOR EACH STATEMENT EXECUTE FUNCTION "clinical_record_access_append_only"();
