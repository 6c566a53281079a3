-- The old free-text requests of /eliminar-datos join the rights workflow (ADR 037). Same id and submission id, so
-- the reference a person was shown still finds their request. They were never proven (verified_via stays null: the
-- detail page says so); the clinic received them, so their legal clock runs from when they were sent: 30 calendar
-- days in America/Santiago, until midnight after the last day (Código Civil art. 48). 'eliminacion' is 'supresion';
-- 'done' ('Resuelta') becomes 'approved', with a note that it was resolved before the workflow existed.
INSERT INTO "privacy_requests" (
  "id", "submission_id", "right", "channel", "name", "email", "phone", "rut", "details", "blocking_requested",
  "status", "received_at", "due_at", "decided_at", "decision_reason", "created_at", "updated_at"
)
SELECT
  "id",
  "submission_id",
  CASE "request_type" WHEN 'eliminacion' THEN 'supresion' ELSE "request_type" END,
  'publico',
  "name",
  lower("email"),
  "phone",
  "rut",
  "details",
  false,
  CASE "status" WHEN 'new' THEN 'received' WHEN 'in_progress' THEN 'in_progress' ELSE 'approved' END,
  "created_at",
  ((("created_at" AT TIME ZONE 'America/Santiago')::date + 31)::timestamp) AT TIME ZONE 'America/Santiago',
  CASE WHEN "status" = 'done' THEN "updated_at" END,
  CASE WHEN "status" = 'done' THEN 'Resuelta antes del flujo de derechos (estado «Resuelta» del formulario anterior).' END,
  "created_at",
  "updated_at"
FROM "data_rights_requests"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "privacy_request_events" ("request_id", "kind", "text", "at")
SELECT "id", 'migrated', 'Recibida por el formulario anterior de /eliminar-datos, sin confirmación del contacto.', "created_at"
FROM "data_rights_requests"
WHERE "id" IN (SELECT "id" FROM "privacy_requests");
--> statement-breakpoint
DROP TABLE "data_rights_requests" CASCADE;
