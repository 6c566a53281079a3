import { z } from "zod";
import { INVALID_REQUEST_MESSAGE } from "~/lib/base/action-result";

/**
 * The patients' payment forms (ADR 036), client-safe. An id that is not one of ours is not refused here: the
 * service answers it with the same "not found" as another patient's id, so the answer tells nothing.
 */
const someId = z.string().trim().min(1).max(64);

/** 'Pagar' on Mis Pagos. */
export const payChargeActionSchema = z.object(
  { intent: z.literal("pay"), chargeId: someId },
  { error: INVALID_REQUEST_MESSAGE },
);

/** 'Reintentar pago' on the result page (the charge is the attempt's, found by the session). */
export const retryPaymentActionSchema = z.object(
  { intent: z.literal("retry") },
  { error: INVALID_REQUEST_MESSAGE },
);
