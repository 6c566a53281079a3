CREATE TABLE "whatsapp_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"lead_id" uuid,
	"appointment_id" uuid,
	"user_id" text,
	"to_phone" text NOT NULL,
	"kind" text NOT NULL,
	"text" text,
	"template_name" text,
	"template_placeholders" jsonb,
	"test_mode" boolean,
	"provider_message_id" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	CONSTRAINT "whatsapp_messages_kind_values" CHECK ("whatsapp_messages"."kind" in ('text', 'template')),
	CONSTRAINT "whatsapp_messages_status_values" CHECK ("whatsapp_messages"."status" in ('queued', 'accepted', 'delivered', 'read', 'failed')),
	CONSTRAINT "whatsapp_messages_content" CHECK (("whatsapp_messages"."kind" = 'text' and "whatsapp_messages"."text" is not null) or ("whatsapp_messages"."kind" = 'template' and "whatsapp_messages"."template_name" is not null))
);
--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_messages_status_idx" ON "whatsapp_messages" USING btree ("status");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_created_at_idx" ON "whatsapp_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_provider_message_id_idx" ON "whatsapp_messages" USING btree ("provider_message_id");