import type { Database } from "~/db/client.server";
import { formatChileanPhone } from "~/domain/format";
import { minutesPhrase } from "~/domain/policy-wording";
import { rateLimitIp } from "~/lib/client-ip.server";
import { clinicFacts } from "~/lib/base/env.server";
import { AppError } from "~/lib/base/errors";
import { consumeAll, type RateRule } from "~/lib/rate-limit.server";

const HOUR = 60 * 60;

/**
 * Stored submissions of the anonymous public forms, per client address and hour, against floods. One budget per kind
 * of form, not one for all: a flood on the lead form (the usual spam target) must never lock someone out of
 * exercising a legal right on /eliminar-datos, and a shared mobile NAT spreads its honest traffic over the forms.
 * The landing form and the helper's wizard post the same lead to the same action, so they share the lead budget
 * (the `source` field comes from the browser; separate budgets would just double what a script may send).
 */
export const publicWriteRules = {
  lead: { window: HOUR, max: 10 },
  callback: { window: HOUR, max: 10 },
  dataRights: { window: HOUR, max: 10 },
  // A reminder's 'Confirmar' / 'Cancelar' links (ADR 018): every POST counts, also a forged token's.
  appointmentLink: { window: HOUR, max: 20 },
} satisfies Record<string, RateRule>;

export type PublicWriteKind = keyof typeof publicWriteRules;

/** Who submits a public form: the client's rate-limit address (IPv6 reduced to its /64). */
export interface PublicWriter {
  ip: string;
}

export function publicWriter(request: Request): PublicWriter {
  return { ip: rateLimitIp(request) };
}

function retryWhen(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes >= 60) return "una hora";
  return minutesPhrase(minutes);
}

/** The budget of this kind of form is spent for this client; `retryAfter` in seconds. */
export class PublicWriteRefused extends AppError {
  constructor(retryAfter: number) {
    super(
      "RATE_LIMITED",
      `Recibimos demasiadas solicitudes desde tu conexión. Intenta nuevamente en ${retryWhen(retryAfter)} o llámanos al ${formatChileanPhone(clinicFacts().phone)}.`,
      retryAfter,
    );
  }
}

/**
 * Charges one stored submission to the client's budget. Call it inside the transaction that stores the row, only
 * when the insert created a new one: a refusal throws and rolls the row back (nothing is stored, not even the
 * attempt), and a double submit that the submission id de-duplicated costs nothing. It runs on the transaction
 * rather than through `isRateLimited` because the embedded database serves one connection: a second one would wait
 * for this transaction forever.
 */
export async function chargePublicWrite(
  tx: Database,
  kind: PublicWriteKind,
  writer: PublicWriter,
  now = new Date(),
): Promise<void> {
  const rule = publicWriteRules[kind];
  const decision = await consumeAll(tx, [{ key: `public-write:${kind}:ip:${writer.ip}`, rule }], now);
  if (!decision.allowed) throw new PublicWriteRefused(decision.retryAfter ?? rule.window);
}
