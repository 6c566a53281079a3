import type { Database } from "~/db/client.server";
import { minutesPhrase } from "~/domain/policy-wording";
import { AppError } from "~/lib/base/errors";
import { consumeAll, consumeRate, type RateRule } from "~/lib/rate-limit.server";
import type { ReadContext, RecordReader } from "./record-actor.server";

/** The RUT portal's rate limits: code requests, code and password attempts, staff lookups. */

/** One hour, in seconds (the rate windows' unit). */
export const HOUR = 60 * 60;

/**
 * A RUT's code budget is each account's own (ADR 029): one account spending it on someone else's RUT
 * leaves the owner's account its full budget. The per-RUT ceiling only bounds how many codes one phone can be sent
 * (it takes ten accounts at their limit to reach it); the clinic is told when a RUT gets `codeRutAlertAt` requests.
 */
export const recordRateRules = {
  codeIp: { window: HOUR, max: 30 },
  codeAccount: { window: HOUR, max: 5 },
  codeAccountRut: { window: HOUR, max: 3 },
  codeRut: { window: HOUR, max: 30 },
  verifyIp: { window: 10 * 60, max: 60 },
  verifyAccount: { window: 10 * 60, max: 15 },
  staffLookup: { window: HOUR, max: 60 },
} satisfies Record<string, RateRule>;

export const CODE_REQUESTS_ALERT_AT = 10;

function retryText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutesPhrase(minutes);
}

function refuse(decision: { retryAfter: number | null }): never {
  const wait = decision.retryAfter ?? HOUR;
  throw new AppError("RATE_LIMITED", `Demasiados intentos. Intenta nuevamente en ${retryText(wait)}.`, wait);
}

export async function charge(db: Database, checks: Array<{ key: string; rule: RateRule }>, now: Date) {
  const decision = await consumeAll(db, checks, now);
  if (!decision.allowed) refuse(decision);
}

/**
 * A code request's limits, the same whatever the RUT: per address, per account, per account and RUT, then the
 * RUT's ceiling, counted only for a request the others let through. Answers whether this request is the one that
 * makes the RUT hammered (the clinic is told once per window).
 */
export async function chargeCodeRequest(
  db: Database,
  reader: RecordReader,
  rut: string,
  context: ReadContext,
  now: Date,
) {
  await charge(
    db,
    [
      { key: `record-code:ip:${context.rateIp}`, rule: recordRateRules.codeIp },
      { key: `record-code:account:${reader.id}`, rule: recordRateRules.codeAccount },
      { key: `record-code:account-rut:${reader.id}:${rut}`, rule: recordRateRules.codeAccountRut },
    ],
    now,
  );
  const ceiling = await consumeRate(db, `record-code:rut:${rut}`, recordRateRules.codeRut, now);
  if (!ceiling.allowed) refuse(ceiling);
  return ceiling.count === CODE_REQUESTS_ALERT_AT;
}

/** Code and password attempts share one budget per address and per account. */
export function chargeVerify(db: Database, reader: RecordReader, context: ReadContext, now: Date) {
  return charge(
    db,
    [
      { key: `record-verify:ip:${context.rateIp}`, rule: recordRateRules.verifyIp },
      { key: `record-verify:account:${reader.id}`, rule: recordRateRules.verifyAccount },
    ],
    now,
  );
}
