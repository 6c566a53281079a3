/**
 * The admin-only words of /admin/pagos and its CSV (ADR 036). Pure, client-safe. The statuses, kinds and payment
 * methods are domain/payment-labels.ts's, the same words the patient reads on Mis Pagos.
 */

/** Who settled an attempt (payments.settled_by). */
export const settledByLabels: Record<string, string> = {
  return: "Retorno del pagador",
  reconciliation: "Conciliación",
  create: "Al crear",
  hold: "Al liberar la reserva",
};

export const PENDING_RECONCILIATION_LABEL = "Pendiente de conciliar";

export const depositKindLabels = { none: "Sin abono", fixed: "Monto fijo", percent: "Porcentaje" } as const;
