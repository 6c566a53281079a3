import { and, count, desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { outbox, rateLimits, sessions, users } from "~/db/schema";
import type { SecurityActionData } from "~/features/auth/security-schema";
import { openPayload } from "~/features/outbox/outbox.server";
import { purgeRateLimitsOnce } from "~/jobs/rate-limit-purge.server";
import { authTexts } from "~/i18n/auth-messages";
import { loadSessionUser } from "~/lib/auth/session.server";
import { action as securityAction } from "~/routes/_account/security";
import { action as signInPageAction } from "~/routes/_auth/auth";
import { action as forgotPasswordAction } from "~/routes/_auth/forgot-password";
import { action as resetPasswordAction, loader as resetPasswordLoader } from "~/routes/_auth/reset-password";
import { loader as betterAuthLoader } from "~/routes/api/auth";
import { loader as funnelLoader } from "~/routes/_staff/funnel";
import { clientForm, clientGet, randomIp, requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { cookiePairs, settle } from "../setup/route-results";
import { createTestUser, signInCookie } from "../setup/users";

// ADR 003: a password change or reset ends the other sessions; deactivated accounts cannot sign in.

function signIn(email: string, password: string) {
  return settle<{ message?: string } | undefined>(() =>
    signInPageAction(
      routeArgs(clientForm("/auth", { intent: "signin", email, password }, { ip: randomIp() })),
    ),
  );
}

async function sessionCount(userId: string) {
  const db = await getDb();
  const [row] = await db.select({ value: count() }).from(sessions).where(eq(sessions.userId, userId));
  return row?.value ?? 0;
}

const signedIn = async (cookie: string) => loadSessionUser(requestAs(cookie, "/paciente"));

beforeAll(async () => {
  await getDb();
});
afterAll(closeDb);

describe("password change (/cuenta/seguridad, intent=change-password)", () => {
  it("ends every older session, gives this browser a new one, and only the new password signs in", async () => {
    const user = await createTestUser();
    const cookieA = user.cookie;
    const cookieB = await signInCookie(user.email, user.password);
    expect(cookieB).not.toBe(cookieA);
    expect((await signedIn(cookieA))?.id).toBe(user.id);
    expect((await signedIn(cookieB))?.id).toBe(user.id);

    const newPassword = "nueva-clave-2026";
    const result = await settle<SecurityActionData>(() =>
      securityAction(
        routeArgs(
          clientForm(
            "/cuenta/seguridad",
            {
              intent: "change-password",
              currentPassword: user.password,
              newPassword,
              confirm: newPassword,
            },
            { cookie: cookieA },
          ),
        ),
      ),
    );
    expect(result.body).toEqual({ ok: true, data: { kind: "password-changed" } });
    expect(result.status).toBe(200);

    // The other browser is signed out; the one that made the change continues with a fresh cookie.
    expect(await signedIn(cookieB)).toBeNull();
    expect(await signedIn(cookieA)).toBeNull();
    const renewed = cookiePairs(result.headers);
    expect(renewed).toMatch(/^clinica\.session_token=/);
    expect((await signedIn(renewed))?.id).toBe(user.id);
    expect(await sessionCount(user.id)).toBe(1);

    const old = await signIn(user.email, user.password);
    expect(old.status).toBe(401);
    expect(old.body?.message).toBe(authTexts.es.invalidCredentials);
    const fresh = await signIn(user.email, newPassword);
    expect(fresh.status).toBe(302);
    expect(fresh.location).toBe("/paciente");
  });

  it("refuses a wrong current password without touching the sessions", async () => {
    const user = await createTestUser();
    const other = await signInCookie(user.email, user.password);
    const result = await settle<SecurityActionData>(() =>
      securityAction(
        routeArgs(
          clientForm(
            "/cuenta/seguridad",
            {
              intent: "change-password",
              currentPassword: "no-es-mi-clave-1",
              newPassword: "nueva-clave-2026",
              confirm: "nueva-clave-2026",
            },
            { cookie: user.cookie },
          ),
        ),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ ok: false, message: "La contraseña actual no es correcta." });
    expect((await signedIn(other))?.id).toBe(user.id);
    expect((await signedIn(user.cookie))?.id).toBe(user.id);
  });
});

describe("password reset by e-mail (/auth/recuperar → link → /auth/restablecer)", () => {
  it("follows the mailed link, sets the new password and ends every previous session", async () => {
    const db = await getDb();
    const user = await createTestUser();
    const cookies = [user.cookie, await signInCookie(user.email, user.password)];

    const requested = await settle(() =>
      forgotPasswordAction(routeArgs(clientForm("/auth/recuperar", { email: user.email }))),
    );
    expect(requested.body).toEqual({ ok: true });

    const [mail] = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(eq(outbox.kind, "email"), like(outbox.idempotencyKey, `reset:${user.id}:%`)))
      .orderBy(desc(outbox.createdAt));
    expect(mail?.payload).toMatchObject({ to: user.email });
    const { secret } = openPayload(mail!.payload);
    const text = String((secret as { text?: unknown }).text);
    const link = /(http:\/\/localhost:3000\/api\/auth\/reset-password\/[^\s?]+\?callbackURL=\S+)/.exec(
      text,
    )?.[1];
    expect(link).toBeDefined();
    const token = new URL(link!).pathname.split("/").pop()!;

    // The link goes through Better Auth's callback to our page, carrying the token.
    const followed = await settle(() => betterAuthLoader(routeArgs(clientGet(link!))));
    expect(followed.status).toBe(302);
    const landing = new URL(followed.location!, "http://localhost:3000");
    expect(landing.origin).toBe("http://localhost:3000");
    expect(landing.pathname).toBe("/auth/restablecer");
    expect(landing.searchParams.get("token")).toBe(token);

    const page = await settle<{ token: string; invalid: boolean }>(() =>
      resetPasswordLoader(routeArgs(clientGet(landing.href))),
    );
    expect(page.body).toEqual({ token, invalid: false });

    const newPassword = "restablecida-2026";
    const reset = await settle(() =>
      resetPasswordAction(
        routeArgs(clientForm("/auth/restablecer", { token, password: newPassword, confirm: newPassword })),
      ),
    );
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ok: true });

    for (const cookie of cookies) expect(await signedIn(cookie)).toBeNull();
    expect(await sessionCount(user.id)).toBe(0);

    // The link works once.
    const again = await settle(() =>
      resetPasswordAction(
        routeArgs(
          clientForm("/auth/restablecer", {
            token,
            password: "tercera-clave-2026",
            confirm: "tercera-clave-2026",
          }),
        ),
      ),
    );
    expect(again.status).toBe(400);

    expect((await signIn(user.email, user.password)).status).toBe(401);
    expect((await signIn(user.email, newPassword)).status).toBe(302);
  });
});

describe("deactivated accounts", () => {
  it("cannot sign in (error 'deactivated', no session) and an existing session stops working", async () => {
    const db = await getDb();
    const user = await createTestUser();
    await db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, user.id));
    const before = await sessionCount(user.id);

    const result = await signIn(user.email, user.password);
    expect(result.status).toBe(403);
    expect(result.body).toEqual({
      ok: false,
      intent: "signin",
      code: "FORBIDDEN",
      message: authTexts.es.deactivated,
    });
    expect(result.headers.getSetCookie().filter((cookie) => cookie.includes("session_token="))).toEqual([]);
    expect(await sessionCount(user.id)).toBe(before);

    expect(await signedIn(user.cookie)).toBeNull();
  });
});

async function ageSession(cookie: string, change: { createdMinutesAgo?: number; idleMinutes: number }) {
  const db = await getDb();
  const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
  const now = Date.now();
  await db
    .update(sessions)
    .set({
      updatedAt: new Date(now - change.idleMinutes * 60_000),
      ...(change.createdMinutesAgo === undefined
        ? {}
        : { createdAt: new Date(now - change.createdMinutesAgo * 60_000) }),
    })
    .where(eq(sessions.token, token));
  return token;
}

async function funnel(cookie: string) {
  return settle(() => funnelLoader(routeArgs(requestAs(cookie, "/funnel"))));
}

describe("staff session lifetime (30 minutes idle, 12 hours absolute)", () => {
  it("ends an asesor's session after 30 idle minutes and deletes it", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    await ageSession(asesor.cookie, { idleMinutes: 29 });
    expect((await funnel(asesor.cookie)).status).toBe(200);
    const token = await ageSession(asesor.cookie, { idleMinutes: 31 });
    const idle = await funnel(asesor.cookie);
    expect(idle.status).toBe(302);
    expect(idle.location).toBe("/auth?redirectTo=%2Ffunnel");
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.token, token))).toEqual([]);
  });

  it("records activity, so a staff member who keeps working stays signed in", async () => {
    const admin = await createTestUser({ roles: ["admin"] });
    await ageSession(admin.cookie, { idleMinutes: 25 });
    expect((await signedIn(admin.cookie))?.id).toBe(admin.id);
    // 25 + 10 minutes since the last write, but only 10 since the request above.
    const db = await getDb();
    const token = decodeURIComponent(admin.cookie.split("=")[1]!).split(".")[0]!;
    const [row] = await db.select().from(sessions).where(eq(sessions.token, token));
    expect(Date.now() - row!.updatedAt.getTime()).toBeLessThan(60_000);
  });

  it("ends a staff session 12 hours after sign-in however active", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    await ageSession(asesor.cookie, { createdMinutesAgo: 12 * 60 - 5, idleMinutes: 1 });
    expect((await funnel(asesor.cookie)).status).toBe(200);
    await ageSession(asesor.cookie, { createdMinutesAgo: 12 * 60 + 1, idleMinutes: 1 });
    expect((await funnel(asesor.cookie)).status).toBe(302);
    expect(await signedIn(asesor.cookie)).toBeNull();
  });

  it("leaves a patient's session alone after 31 idle minutes", async () => {
    const patient = await createTestUser();
    await ageSession(patient.cookie, { idleMinutes: 31 });
    expect((await signedIn(patient.cookie))?.id).toBe(patient.id);
  });
});

describe("rate-limit housekeeping", () => {
  it("purges windows that ended long ago and keeps live ones", async () => {
    const db = await getDb();
    const old = `purga:vieja:${randomIp()}`;
    const live = `purga:viva:${randomIp()}`;
    await db.insert(rateLimits).values([
      { key: old, count: 3, windowStart: new Date(Date.now() - 25 * 60 * 60_000) },
      { key: live, count: 3, windowStart: new Date(Date.now() - 50 * 60_000) },
    ]);
    expect(await purgeRateLimitsOnce()).toBeGreaterThanOrEqual(1);
    const left = (await db.select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key);
    expect(left).toContain(live);
    expect(left).not.toContain(old);
  });
});
