-- Hand-written (issue 19 item 1, ADR 029): reset and verification e-mails queued before their bodies were sealed kept
-- the link in clear in the payload, and the token in the idempotency key (`reset:<user>:<token>`). Once such a row is
-- no longer pending its body has done its work: drop it and the token from the key. A row still pending is sent as it
-- was queued (its link expires within 24 hours).
UPDATE "outbox"
  SET "payload" = "payload" - 'text' - 'html',
      "idempotency_key" = split_part("idempotency_key", ':', 1) || ':' || "id"::text
  WHERE "kind" = 'email' AND "status" <> 'pending'
    AND ("idempotency_key" LIKE 'reset:%' OR "idempotency_key" LIKE 'verify:%')
    AND "payload" ->> 'text' IS NOT NULL;
