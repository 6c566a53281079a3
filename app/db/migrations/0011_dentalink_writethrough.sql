ALTER TABLE "appointments" ADD COLUMN "dentalink_appointment_id" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "dentalink_patient_id" text;