CREATE TABLE "chat_guests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"external_id" text,
	"browser_key_hash" text,
	"first_name" text DEFAULT 'Anonymous' NOT NULL,
	"last_name" text DEFAULT 'Visitor' NOT NULL,
	"email" text,
	"phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_guests_owner" CHECK ("chat_guests"."external_id" is not null or "chat_guests"."browser_key_hash" is not null)
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"seq" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"id" uuid NOT NULL,
	"room_id" uuid NOT NULL,
	"author" text NOT NULL,
	"staff_user_id" text,
	"kind" text DEFAULT 'message' NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_messages_id_unique" UNIQUE("id"),
	CONSTRAINT "chat_messages_author_values" CHECK ("chat_messages"."author" in ('guest', 'agent', 'staff', 'system')),
	CONSTRAINT "chat_messages_kind_values" CHECK ("chat_messages"."kind" in ('message', 'note')),
	CONSTRAINT "chat_messages_content_length" CHECK (char_length("chat_messages"."content") between 1 and 4000)
);
--> statement-breakpoint
CREATE TABLE "chat_refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_id" uuid NOT NULL,
	"guest_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "chat_rooms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"guest_id" uuid NOT NULL,
	"agent_id" text NOT NULL,
	"status" text DEFAULT 'bot' NOT NULL,
	"handoff_reason" text,
	"handoff_summary" text,
	"handoff_at" timestamp with time zone,
	"assigned_to" text,
	"ai_consent_version" text,
	"ai_consent_at" timestamp with time zone,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_rooms_status_values" CHECK ("chat_rooms"."status" in ('bot', 'pending_human', 'open', 'resolved'))
);
--> statement-breakpoint
ALTER TABLE "chat_guests" ADD CONSTRAINT "chat_guests_external_id_users_id_fk" FOREIGN KEY ("external_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_room_id_chat_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."chat_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_refresh_tokens" ADD CONSTRAINT "chat_refresh_tokens_guest_id_chat_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."chat_guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_guest_id_chat_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."chat_guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_guests_account_external_idx" ON "chat_guests" USING btree ("account_id","external_id");--> statement-breakpoint
CREATE INDEX "chat_messages_room_seq_idx" ON "chat_messages" USING btree ("room_id","seq");--> statement-breakpoint
CREATE INDEX "chat_refresh_tokens_family_idx" ON "chat_refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "chat_rooms_guest_idx" ON "chat_rooms" USING btree ("guest_id");--> statement-breakpoint
CREATE INDEX "chat_rooms_status_activity_idx" ON "chat_rooms" USING btree ("status","last_message_at");