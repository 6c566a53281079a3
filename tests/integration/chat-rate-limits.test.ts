import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { chatAddressRules, chatMessageRule } from "~/features/chat/chat-rate-limits.server";
import { randomIp } from "../setup/clients";
import { ACCOUNT, api, roomWithToken } from "../setup/chat-api";

afterAll(closeDb);

// Abuse limits of /api/chat/* (chat-rate-limits.server.ts): per client address for guest creation, login and token refresh, per
// guest for messages; 429 with a Spanish {detail} and Retry-After; nobody else pays for the flood.

async function expectRefused(response: Response) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  const body = (await response.json()) as { detail: string };
  expect(body.detail).toMatch(/Intenta nuevamente|Espera/);
  return retryAfter;
}

const post = (room: { roomId: string; token: string }, content: string) =>
  api("POST", `rooms/${room.roomId}/messages`, {
    bearer: room.token,
    body: { id: randomUUID(), content },
  });

describe("chat rate limits", () => {
  it("attack: a guest-creation flood from one address gets 429; another address still creates guests", async () => {
    const flooder = randomIp();
    const { max, window } = chatAddressRules.guest;
    for (let index = 0; index < max; index++) {
      const created = await api("POST", "guest", { ip: flooder, body: { account_id: ACCOUNT } });
      expect(created.status).toBe(201);
    }
    const refused = await api("POST", "guest", { ip: flooder, body: { account_id: ACCOUNT } });
    expect(await expectRefused(refused)).toBeLessThanOrEqual(window);
    // Nothing was created: no cookie.
    expect(refused.headers.getSetCookie()).toHaveLength(0);
    const neighbour = await api("POST", "guest", { ip: randomIp(), body: { account_id: ACCOUNT } });
    expect(neighbour.status).toBe(201);
  });

  it("attack: guessing refresh tokens and repeating logins from one address is throttled", async () => {
    const guesser = randomIp();
    for (let index = 0; index < chatAddressRules.refresh.max; index++) {
      const guess = await api("POST", "guest/token/refresh", {
        ip: guesser,
        body: { refresh_token: randomUUID().repeat(2), jid: false },
      });
      expect(guess.status).toBe(401);
    }
    await expectRefused(
      await api("POST", "guest/token/refresh", {
        ip: guesser,
        body: { refresh_token: randomUUID().repeat(2), jid: false },
      }),
    );

    const created = await api("POST", "guest", { ip: randomIp(), body: { account_id: ACCOUNT } });
    const guest = (await created.json()) as { id: string };
    const cookie = created.headers.getSetCookie()[0]!.split(";")[0]!;
    const loginPath = `guest/login?guest_id=${guest.id}&account_id=${ACCOUNT}`;
    const looper = randomIp();
    for (let index = 0; index < chatAddressRules.login.max; index++) {
      expect((await api("POST", loginPath, { ip: looper, cookie })).status).toBe(200);
    }
    await expectRefused(await api("POST", loginPath, { ip: looper, cookie }));
    expect((await api("POST", loginPath, { ip: randomIp(), cookie })).status).toBe(200);
  });

  it("attack: a message flood from one guest gets 429 past its budget; another guest is unaffected", async () => {
    const flooder = await roomWithToken();
    const other = await roomWithToken();
    // Rooms with a person: no agent reply per message, only the guest's own messages count.
    await api("POST", `rooms/${flooder.roomId}/handoff`, { bearer: flooder.token, body: {} });
    await api("POST", `rooms/${other.roomId}/handoff`, { bearer: other.token, body: {} });
    const { max } = chatMessageRule();
    const burst = await Promise.all(
      Array.from({ length: max }, (_, index) => post(flooder, `spam ${index}`)),
    );
    expect(burst.map((response) => response.status)).toEqual(Array(max).fill(201));
    const refused = await post(flooder, "uno más");
    expect(await expectRefused(refused)).toBeLessThanOrEqual(60);
    expect((await post(other, "hola, ¿me ayudan?")).status).toBe(201);

    // The refused message was not stored.
    const history = (await (
      await api("GET", `rooms/${flooder.roomId}`, { bearer: flooder.token })
    ).json()) as {
      messages: Array<{ content: string }>;
    };
    expect(history.messages.map((message) => message.content)).not.toContain("uno más");
  });
});
