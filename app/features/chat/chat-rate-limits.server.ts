import { getDb } from "~/db/client.server";
import { rateLimitIp } from "~/lib/client-ip.server";
import { env } from "~/lib/env.server";
import { consumeRate, type RateRule } from "~/lib/rate-limit.server";

/**
 * Abuse limits of the guest chat platform (issue 12, DESIGN §6), in the shared database counters so every instance
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

/** Refused: the Spanish `{detail}` and the seconds for Retry-After. */
export interface ChatRefusal {
  detail: string;
  retryAfter: number;
}

function inWords(seconds: number) {
  if (seconds < 60) return seconds === 1 ? "1 segundo" : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minuto" : `${minutes} minutos`;
}

/** Counts one `action` from the request's address; a refusal when its budget is spent. */
export async function chargeAddress(
  request: Request,
  action: ChatAddressAction,
): Promise<ChatRefusal | null> {
  const decision = await consumeRate(
    await getDb(),
    `chat:${action}:ip:${rateLimitIp(request)}`,
    chatAddressRules[action],
  );
  if (decision.allowed) return null;
  const retryAfter = decision.retryAfter ?? chatAddressRules[action].window;
  return {
    detail: `Demasiadas solicitudes al chat desde tu conexión. Intenta nuevamente en ${inWords(retryAfter)}.`,
    retryAfter,
  };
}

/** Counts one message of this guest; a refusal when the guest sends too fast. */
export async function chargeGuestMessage(guestId: string): Promise<ChatRefusal | null> {
  const rule = chatMessageRule();
  const decision = await consumeRate(await getDb(), `chat:message:guest:${guestId}`, rule);
  if (decision.allowed) return null;
  const retryAfter = decision.retryAfter ?? rule.window;
  return {
    detail: `Estás enviando mensajes muy rápido. Espera ${inWords(retryAfter)} y vuelve a intentarlo.`,
    retryAfter,
  };
}
