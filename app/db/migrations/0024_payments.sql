CREATE TABLE "charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" text NOT NULL,
	"kind" text NOT NULL,
	"appointment_id" uuid,
	"dentalink_budget_id" text,
	"concept" text NOT NULL,
	"amount" integer NOT NULL,
	"credited_amount" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"paid_at" timestamp with time zone,
	"waived_at" timestamp with time zone,
	"waived_by" text,
	"waived_reason" text,
	"registered_at_dentalink_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charges_kind_values" CHECK ("charges"."kind" in ('deposit', 'late_cancellation', 'balance')),
	CONSTRAINT "charges_status_values" CHECK ("charges"."status" in ('open', 'paid', 'waived', 'void')),
	CONSTRAINT "charges_amount_positive" CHECK ("charges"."amount" > 0),
	CONSTRAINT "charges_credit_range" CHECK ("charges"."credited_amount" between 0 and "charges"."amount")
);
--> statement-breakpoint
CREATE TABLE "patient_deposit_flags" (
	"patient_id" text PRIMARY KEY NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"reason" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"requested_by" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"type" text,
	"authorization_code" text,
	"last_error" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_refunds_status_values" CHECK ("payment_refunds"."status" in ('pending', 'done', 'failed')),
	CONSTRAINT "payment_refunds_amount_positive" CHECK ("payment_refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"charge_id" uuid NOT NULL,
	"patient_id" text NOT NULL,
	"buy_order" text NOT NULL,
	"session_id" text NOT NULL,
	"token" text,
	"form_url" text,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"returned_at" timestamp with time zone,
	"commit_claimed_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"settled_by" text,
	"response_code" integer,
	"authorization_code" text,
	"payment_type_code" text,
	"card_last4" text,
	"installments" integer,
	"transaction_date" timestamp with time zone,
	"checks" integer DEFAULT 0 NOT NULL,
	"last_checked_at" timestamp with time zone,
	"last_error" text,
	"form_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_buy_order_unique" UNIQUE("buy_order"),
	CONSTRAINT "payments_token_unique" UNIQUE("token"),
	CONSTRAINT "payments_status_values" CHECK ("payments"."status" in ('created', 'authorized', 'rejected', 'aborted', 'expired', 'refunded', 'partially_refunded')),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount" > 0),
	CONSTRAINT "payments_refund_range" CHECK ("payments"."refunded_amount" between 0 and "payments"."amount")
);
--> statement-breakpoint
CREATE TABLE "treatment_deposits" (
	"treatment_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "treatment_deposits_kind_values" CHECK ("treatment_deposits"."kind" in ('none', 'fixed', 'percent')),
	CONSTRAINT "treatment_deposits_value_range" CHECK ("treatment_deposits"."value" >= 0)
);
--> statement-breakpoint
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_status_values";--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "agreed_price" integer;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "payment_hold_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_waived_by_users_id_fk" FOREIGN KEY ("waived_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_deposit_flags" ADD CONSTRAINT "patient_deposit_flags_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_deposits" ADD CONSTRAINT "treatment_deposits_treatment_id_treatments_id_fk" FOREIGN KEY ("treatment_id") REFERENCES "public"."treatments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_deposits" ADD CONSTRAINT "treatment_deposits_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charges_patient_idx" ON "charges" USING btree ("patient_id","created_at");--> statement-breakpoint
CREATE INDEX "charges_appointment_idx" ON "charges" USING btree ("appointment_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payments_patient_idx" ON "payments" USING btree ("patient_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_charge_idx" ON "payments" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "payments_open_idx" ON "payments" USING btree ("form_expires_at") WHERE "payments"."status" = 'created';--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_status_values" CHECK ("appointments"."status" in ('scheduled', 'confirmed', 'in_progress', 'completed', 'cancelled', 'no_show', 'pending_payment', 'payment_failed'));--> statement-breakpoint
-- A booking released because its deposit was never paid frees its slot like a cancelled one (ADR 036); drizzle-kit
-- does not model EXCLUDE constraints, so both are written here with the two statuses of `slotFreeingStatuses`.
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_no_overlap";--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_overlap" EXCLUDE USING gist ("dentist_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&) WHERE ("status" NOT IN ('cancelled', 'payment_failed'));--> statement-breakpoint
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_patient_no_overlap";--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_no_overlap" EXCLUDE USING gist ("patient_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&) WHERE ("status" NOT IN ('cancelled', 'payment_failed'));
