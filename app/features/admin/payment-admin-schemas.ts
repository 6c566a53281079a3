import { z } from "zod";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { chargeKinds, paymentStatuses } from "~/domain/payments";

/**
 * The query and the forms of /admin/pagos (ADR 036). The filters are lenient (a bad value is "all", as on the other
 * admin lists); the forms are strict, with Spanish messages.
 */

/** How many days the list shows when no range is given: the last 30 Santiago days, today included. */
export const PAYMENTS_DEFAULT_DAYS = 30;
/** The longest range one query may cover (a year), so a typo cannot scan the whole table. */
export const PAYMENTS_MAX_DAYS = 366;
/** The table shows at most this many attempts, newest first; the CSV holds every one of the range. */
export const PAYMENTS_LIST_LIMIT = 200;
export const REFUND_REASON_MIN = 5;
export const REASON_MAX = 500;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
  .optional()
  .catch(undefined);

const rawFilterSchema = z.object({
  estado: z.enum(paymentStatuses).optional().catch(undefined),
  concepto: z.enum(chargeKinds).optional().catch(undefined),
  desde: isoDay,
  hasta: isoDay,
  q: z
    .string()
    .catch("")
    .default("")
    .transform((value) => value.trim().slice(0, 100)),
});

export interface PaymentFilters {
  status: (typeof paymentStatuses)[number] | null;
  kind: (typeof chargeKinds)[number] | null;
  /** Santiago days, inclusive. */
  from: string;
  to: string;
  search: string;
}

/** `?estado=&concepto=&desde=&hasta=&q=` → filters; the range defaults to the last 30 days and is kept in order. */
export function parsePaymentFilters(params: URLSearchParams, now = new Date()): PaymentFilters {
  const raw = rawFilterSchema.parse({
    estado: params.get("estado") ?? undefined,
    concepto: params.get("concepto") ?? undefined,
    desde: params.get("desde") ?? undefined,
    hasta: params.get("hasta") ?? undefined,
    q: params.get("q") ?? undefined,
  });
  const today = clinicDate(now);
  let to = raw.hasta ?? today;
  let from = raw.desde ?? addDays(to, -(PAYMENTS_DEFAULT_DAYS - 1));
  if (from > to) [from, to] = [to, from];
  if (addDays(from, PAYMENTS_MAX_DAYS - 1) < to) from = addDays(to, -(PAYMENTS_MAX_DAYS - 1));
  return { status: raw.estado ?? null, kind: raw.concepto ?? null, from, to, search: raw.q };
}

/** The filters as the page's query string (the CSV link carries the same). */
export function paymentFilterQuery(filters: PaymentFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set("estado", filters.status);
  if (filters.kind) params.set("concepto", filters.kind);
  params.set("desde", filters.from);
  params.set("hasta", filters.to);
  if (filters.search) params.set("q", filters.search);
  return params.toString();
}

const reason = (min: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(min, { error: message })
    .max(REASON_MAX, { error: `El motivo no puede superar ${REASON_MAX} caracteres.` });

/** Whole pesos as typed in Chile: "15000", "15.000" or "$15.000". */
const pesos = z
  .string({ error: "Ingresa el monto en pesos." })
  .trim()
  .transform((value) => value.replace(/^\$\s*/, "").replace(/\./g, ""))
  .pipe(
    z
      .string()
      .regex(/^\d{1,9}$/, { error: "Ingresa el monto en pesos, sin decimales." })
      .transform(Number),
  );

/** The forms of /admin/pagos, one `intent` per button. */
export const paymentActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("refund"),
      paymentId: z.uuid({ error: "El pago no es válido." }),
      amount: pesos,
      reason: reason(
        REFUND_REASON_MIN,
        `Indica el motivo del reembolso (al menos ${REFUND_REASON_MIN} caracteres).`,
      ),
    }),
    z.object({
      intent: z.literal("waive"),
      chargeId: z.uuid({ error: "El cargo no es válido." }),
      reason: reason(
        REFUND_REASON_MIN,
        `Indica el motivo de la condonación (al menos ${REFUND_REASON_MIN} caracteres).`,
      ),
    }),
    z.object({
      intent: z.literal("dentalink"),
      chargeId: z.uuid({ error: "El cargo no es válido." }),
    }),
    z.object({
      intent: z.literal("deposit"),
      treatmentId: z.coerce.number({ error: "El tratamiento no es válido." }).int().positive(),
      kind: z.enum(["none", "fixed", "percent"], { error: "Elige el tipo de abono." }),
      value: z.string().trim().default(""),
    }),
  ],
  { error: "La acción no es válida." },
);
export type PaymentAction = z.output<typeof paymentActionSchema>;
