ALTER TABLE "clinical_record_access" DROP CONSTRAINT "clinical_record_access_resource_values";--> statement-breakpoint
ALTER TABLE "clinical_record_bindings" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clinical_record_access" ADD CONSTRAINT "clinical_record_access_resource_values" CHECK ("clinical_record_access"."resource" in ('codigo', 'vinculacion', 'paciente', 'citas', 'pagos', 'tratamientos', 'documentos', 'radiografias', 'archivo'));--> statement-breakpoint
-- Hand-written (issue 19 item 1, ADR 029): messages stored before this migration keep no one-time code and no
-- single-use link. The secret placeholders (app/domain/whatsapp-templates.ts: codigo_acceso_ficha {{1}},
-- recordatorio_cita {{4}} and {{5}}) become '[oculto]'; a message still queued then fails instead of going out.
UPDATE "whatsapp_messages" SET "template_placeholders" = jsonb_build_array('[oculto]')
  WHERE "template_name" = 'codigo_acceso_ficha' AND jsonb_array_length("template_placeholders") = 1;--> statement-breakpoint
UPDATE "whatsapp_messages"
  SET "template_placeholders" = jsonb_set(jsonb_set("template_placeholders", '{3}', '"[oculto]"'), '{4}', '"[oculto]"')
  WHERE "template_name" = 'recordatorio_cita' AND jsonb_array_length("template_placeholders") = 5;--> statement-breakpoint
-- The code e-mails' bodies, and the code in their idempotency key.
UPDATE "outbox" SET "payload" = "payload" - 'text' - 'html', "idempotency_key" = 'record-code:' || "id"::text
  WHERE "kind" = 'email' AND "idempotency_key" LIKE 'record-code:%';
