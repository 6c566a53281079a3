CREATE TABLE "analytics_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_settings" ADD CONSTRAINT "analytics_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_author_seq_idx" ON "chat_messages" USING btree ("author","seq");--> statement-breakpoint
CREATE INDEX "outbox_pending_created_idx" ON "outbox" USING btree ("created_at") WHERE "outbox"."status" = 'pending';