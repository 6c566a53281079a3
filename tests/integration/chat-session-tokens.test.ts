import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { AI_NOTICE_VERSION } from "~/features/chat/chat-schema";
import { action as securityAction } from "~/routes/_account/security";
import { action as signOutAction } from "~/routes/_auth/sign-out";
import { ACCOUNT, api, openStream, send } from "../setup/chat-api";
import { clientForm } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser, signInCookie } from "../setup/users";

afterAll(closeDb);

/** The room stream's keep-alive period (chat-api.server.ts), when a signed-in guest's session is checked again. */
const KEEP_ALIVE_MS = 25_000;

// ADR 032: a signed-in patient's chat tokens live only as long as the session they were issued under; the
// room's history may hold health data, so a refresh token left in the browser's storage must not outlive sign-out.

interface Tokens {
  access_token: string;
  refresh_token: string;
}

/** The widget's flow for a signed-in patient: guest, room, login (tokens), AI notice, one message with health data. */
async function patientChat(cookie: string) {
  const guest = (await (await api("POST", "guest", { cookie, body: { account_id: ACCOUNT } })).json()) as {
    id: string;
  };
  const room = (await (
    await api("POST", "guest/room", {
      cookie,
      body: { account_id: ACCOUNT, guest_id: guest.id, agent_id: "dentist-bot" },
    })
  ).json()) as { room_id: string };
  const login = await api("POST", `guest/login?guest_id=${guest.id}&account_id=${ACCOUNT}`, { cookie });
  expect(login.status).toBe(200);
  const tokens = (await login.json()) as Tokens;
  await api("POST", `rooms/${room.room_id}/consent`, {
    bearer: tokens.access_token,
    body: { version: AI_NOTICE_VERSION, accepted: true },
  });
  expect((await send(room.room_id, tokens.access_token, "Tengo una infección en la muela")).status).toBe(201);
  return { roomId: room.room_id, tokens };
}

const refresh = (refreshToken: string) =>
  api("POST", "guest/token/refresh", { body: { refresh_token: refreshToken, jid: false } });

/** What the tokens left in a browser can still do: refresh, read the history, open the stream, send. */
async function whatTheTokensDo(roomId: string, tokens: Tokens) {
  const refreshed = await refresh(tokens.refresh_token);
  const history = await api("GET", `rooms/${roomId}`, { bearer: tokens.access_token });
  const stream = await api("GET", `rooms/${roomId}/events`, { bearer: tokens.access_token });
  await stream.body?.cancel();
  return {
    refresh: refreshed.status,
    newTokens: (await refreshed.text()).includes("access_token"),
    history: history.status,
    healthData: (await history.text()).includes("infección"),
    stream: stream.status,
    send: (await send(roomId, tokens.access_token, "sigo aquí")).status,
  };
}

const LOCKED_OUT = {
  refresh: 401,
  newTokens: false,
  history: 401,
  healthData: false,
  stream: 401,
  send: 401,
};

describe("a signed-in patient's chat tokens are tied to the session", () => {
  it("work while the session lives, also after a refresh", async () => {
    const user = await createTestUser();
    const { roomId, tokens } = await patientChat(user.cookie);
    const refreshed = await refresh(tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as Tokens;
    const history = await api("GET", `rooms/${roomId}`, { bearer: fresh.access_token });
    expect(history.status).toBe(200);
    expect(await history.text()).toContain("infección");
  });

  it("attack: after sign-out the stored refresh token (even a rotated one) and the access token read nothing", async () => {
    const user = await createTestUser();
    const { roomId, tokens } = await patientChat(user.cookie);
    // A refresh before sign-out: the rotated tokens are bound to the same session.
    const rotated = (await (await refresh(tokens.refresh_token)).json()) as Tokens;

    const out = await settle(() =>
      signOutAction(routeArgs(clientForm("/auth/salir", {}, { cookie: user.cookie }))),
    );
    expect(out.status).toBe(302);

    expect(await whatTheTokensDo(roomId, rotated)).toEqual(LOCKED_OUT);
  });

  it("attack: after a password change (other sessions revoked) the tokens of the other browser are refused", async () => {
    const user = await createTestUser();
    const otherBrowser = await signInCookie(user.email, user.password);
    const { roomId, tokens } = await patientChat(otherBrowser);

    const newPassword = "nueva-clave-2026";
    const changed = await settle(() =>
      securityAction(
        routeArgs(
          clientForm(
            "/cuenta/seguridad",
            { intent: "change-password", currentPassword: user.password, newPassword, confirm: newPassword },
            { cookie: user.cookie },
          ),
        ),
      ),
    );
    expect(changed.body).toEqual({ ok: true, data: { kind: "password-changed" } });

    expect(await whatTheTokensDo(roomId, tokens)).toEqual(LOCKED_OUT);
  });

  it("attack: after the session expires the tokens are refused", async () => {
    const user = await createTestUser();
    const { roomId, tokens } = await patientChat(user.cookie);
    const db = await getDb();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));

    expect(await whatTheTokensDo(roomId, tokens)).toEqual(LOCKED_OUT);
  });

  it("attack: a stream opened before sign-out ends at its next keep-alive once the session is gone", async () => {
    const user = await createTestUser();
    const { roomId, tokens } = await patientChat(user.cookie);
    // Only the stream's keep-alive timer is faked, so the test need not wait its 25 s.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const stream = openStream(roomId, tokens.access_token);
      await stream.waitForMessages(2);
      await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS);
      expect(await stream.ended(500)).toBe(false);

      await settle(() => signOutAction(routeArgs(clientForm("/auth/salir", {}, { cookie: user.cookie }))));
      await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS);
      expect(await stream.ended(5000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("an anonymous guest keeps its tokens as before (bound to its browser, not to a session)", async () => {
    const created = await api("POST", "guest", { body: { account_id: ACCOUNT } });
    const guest = (await created.json()) as { id: string };
    const cookie = created.headers.getSetCookie()[0]!.split(";")[0]!;
    const login = (await (
      await api("POST", `guest/login?guest_id=${guest.id}&account_id=${ACCOUNT}`, { cookie })
    ).json()) as Tokens;
    const refreshed = await refresh(login.refresh_token);
    expect(refreshed.status).toBe(200);
  });
});
