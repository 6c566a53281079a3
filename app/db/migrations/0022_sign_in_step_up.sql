CREATE TABLE "sign_in_step_ups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"challenge_hash" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_step_ups_attempts" CHECK ("sign_in_step_ups"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "sign_in_step_ups" ADD CONSTRAINT "sign_in_step_ups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sign_in_step_ups_challenge_idx" ON "sign_in_step_ups" USING btree ("challenge_hash");--> statement-breakpoint
CREATE INDEX "sign_in_step_ups_user_idx" ON "sign_in_step_ups" USING btree ("user_id");