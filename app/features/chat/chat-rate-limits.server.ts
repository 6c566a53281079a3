import { minutesPhrase } from "~/domain/policy-wording";
import type { Database } from "~/db/client.server";
import { createSlotCounter } from "~/domain/concurrency-slots";
import { rateLimitIp } from "~/lib/client-ip.server";
import { env } from "~/lib/base/env.server";
import { AppError } from "~/lib/base/errors";
import { consumeRate, type RateRule } from "~/lib/rate-limit.server";

/**
 * Abuse limits of the guest chat platform (ADR 032, ADR 033), in the shared database counters so every instance
 * applies the same budget. Per client address (IPv6 per /64) for what an anonymous caller can repeat at will —
 * creating guests, logging in, refreshing tokens (every attempt counts, failed ones too, so guessing refresh tokens
 * is throttled) — and per guest for messages. The windows are fixed: the one-minute message window lets a short
 * burst through (a suggested prompt and quick follow-ups) and stops a flood at its 21st message.
 */
const TEN_MINUTES = 10 * 60;

export const chatAddressRules = {
  guest: { window: TEN_MINUTES, max: 30 },
  login: { window: TEN_MINUTES, max: 60 },
  refresh: { window: TEN_MINUTES, max: 60 },
} satisfies Record<string, RateRule>;

export type ChatAddressAction = keyof typeof chatAddressRules;

export function chatMessageRule(): RateRule {
  return { window: 60, max: env().CHAT_MESSAGES_PER_MINUTE };
}

/** Refused: a 429 with the Spanish `{detail}` and the seconds for Retry-After. */
function refusal(detail: string, retryAfter: number) {
  return new AppError("RATE_LIMITED", detail, retryAfter);
}

function inWords(seconds: number) {
  if (seconds < 60) return seconds === 1 ? "1 segundo" : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutesPhrase(minutes);
}

/** Counts one `action` from the request's address; throws the refusal when its budget is spent. */
export async function chargeAddress(
  db: Database,
  request: Request,
  action: ChatAddressAction,
): Promise<void> {
  const decision = await consumeRate(
    db,
    `chat:${action}:ip:${rateLimitIp(request)}`,
    chatAddressRules[action],
  );
  if (decision.allowed) return;
  const retryAfter = decision.retryAfter ?? chatAddressRules[action].window;
  throw refusal(
    `Demasiadas solicitudes al chat desde tu conexión. Intenta nuevamente en ${inWords(retryAfter)}.`,
    retryAfter,
  );
}

/** Counts one message of this guest; throws the refusal when the guest sends too fast. */
export async function chargeGuestMessage(db: Database, guestId: string): Promise<void> {
  const rule = chatMessageRule();
  const decision = await consumeRate(db, `chat:message:guest:${guestId}`, rule);
  if (decision.allowed) return;
  const retryAfter = decision.retryAfter ?? rule.window;
  throw refusal(
    `Estás enviando mensajes muy rápido. Espera ${inWords(retryAfter)} y vuelve a intentarlo.`,
    retryAfter,
  );
}

/**
 * Concurrent event streams (ADR 032), counted in this process: a stream holds memory and a socket
 * on the instance that serves it, so the cap that protects an instance is that instance's own count. Per guest
 * (one token or many), per room (a room has one guest, so its cap is the guest's; kept as its own key so a second
 * kind of reader cannot lift it) and per client address (generous: patients behind one carrier NAT share it).
 */
export function chatStreamCaps() {
  const { CHAT_STREAMS_PER_GUEST: guest, CHAT_STREAMS_PER_ADDRESS: address } = env();
  return { guest, room: guest, address };
}

/** Seconds a capped client is told to wait before it tries again (a closed stream frees its slot at once). */
const STREAM_RETRY_AFTER = 10;

const streams = createSlotCounter();

/** Streams open on this instance now (for a future /metrics endpoint). */
export function openChatStreams(): number {
  return streams.held();
}

/** Takes a stream slot for this guest, room and address: its release; throws the refusal when a cap is reached. */
export function takeStreamSlot(request: Request, guestId: string, roomId: string): { release: () => void } {
  const caps = chatStreamCaps();
  const grant = streams.take([
    { key: `guest:${guestId}`, max: caps.guest },
    { key: `room:${roomId}`, max: caps.room },
    { key: `ip:${rateLimitIp(request)}`, max: caps.address },
  ]);
  if (grant.ok) return { release: grant.release };
  const wait = inWords(STREAM_RETRY_AFTER);
  throw refusal(
    grant.full.key.startsWith("ip:")
      ? `Hay demasiadas conexiones abiertas al chat desde tu conexión. Intenta nuevamente en ${wait}.`
      : `Tienes demasiadas conexiones abiertas al chat (¿varias pestañas?). Cierra alguna o intenta nuevamente en ${wait}.`,
    STREAM_RETRY_AFTER,
  );
}
