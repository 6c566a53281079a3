import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { outbox, rateLimits, users } from "~/db/schema";
import { authTexts } from "~/i18n/auth-messages";
import { action as signInPageAction } from "~/routes/_auth/auth";
import { action as forgotPasswordAction } from "~/routes/_auth/forgot-password";
import { action as dashboardAction } from "~/routes/_patient/dashboard";
import { action as betterAuthAction, loader as betterAuthLoader } from "~/routes/api/auth";
import { clientForm, clientGet, clientJson, randomIp, uniqueEmail } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser } from "../setup/users";

// DESIGN §6: rate limits stored in the database, per IP and per account, on our own wrapped auth actions.

type AuthBody = { intent?: string; code?: string; message?: string } | undefined;

function signIn(email: string, password: string, ip: string, extra: Record<string, string> = {}) {
  return settle<AuthBody>(() =>
    signInPageAction(routeArgs(clientForm("/auth", { intent: "signin", email, password, ...extra }, { ip }))),
  );
}

function signUp(email: string, ip: string) {
  return settle<AuthBody>(() =>
    signInPageAction(
      routeArgs(
        clientForm(
          "/auth",
          { intent: "signup", firstName: "Límite", lastName: "Prueba", email, password: "clave-segura-2026" },
          { ip },
        ),
      ),
    ),
  );
}

function sessionCookieOf(headers: Headers) {
  return headers.getSetCookie().find((cookie) => cookie.startsWith("clinica.session_token="));
}

beforeAll(async () => {
  await getDb();
});
afterAll(closeDb);

describe("sign-in rate limits (/auth, intent=signin): only failures count", () => {
  it("lets one person sign in 20 times in a row from one address", async () => {
    const user = await createTestUser();
    const ip = randomIp();
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 20; attempt++)
      statuses.push((await signIn(user.email, user.password, ip)).status);
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 302));
  });

  it("does not let wrong passwords from one address lock the account out elsewhere", async () => {
    const user = await createTestUser();
    const attacker = randomIp();
    const wrong: Array<[number, string | undefined]> = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      const result = await signIn(user.email, `incorrecta-${attempt}`, attacker);
      wrong.push([result.status, result.body?.message]);
    }
    expect(wrong).toEqual(Array.from({ length: 10 }, () => [401, authTexts.es.invalidCredentials]));

    // The attacker's address is now refused for this account, even with the right password…
    const blocked = await signIn(user.email, user.password, attacker);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      ok: false,
      intent: "signin",
      code: "RATE_LIMITED",
      message: authTexts.es.rateLimited,
    });
    expect(sessionCookieOf(blocked.headers)).toBeUndefined();
    expect(authTexts.es.rateLimited).toBe("Demasiados intentos. Espera unos minutos e inténtalo nuevamente.");
    // …typed in another case too (the same account)…
    const shouted = await signIn(`  ${user.email.toUpperCase()} `, user.password, attacker);
    expect(shouted.status).toBe(429);
    // …but the owner, from another address, signs in.
    const owner = await signIn(user.email, user.password, randomIp());
    expect(owner.status).toBe(302);
    expect(sessionCookieOf(owner.headers)).toBeDefined();
  });

  it("forgets an address's failures on the account after the right password from it", async () => {
    const user = await createTestUser();
    const ip = randomIp();
    for (let attempt = 1; attempt <= 9; attempt++) await signIn(user.email, `mala-${attempt}`, ip);
    expect((await signIn(user.email, user.password, ip)).status).toBe(302);
    const again: number[] = [];
    for (let attempt = 1; attempt <= 9; attempt++)
      again.push((await signIn(user.email, `mala-${attempt}`, ip)).status);
    expect(again).toEqual(Array.from({ length: 9 }, () => 401));
    expect((await signIn(user.email, user.password, ip)).status).toBe(302);
  });

  it("stops a password spray from many addresses at 100 failures per account per hour", async () => {
    const user = await createTestUser();
    const db = await getDb();
    // 99 failures already counted this hour (as if from many addresses), then the 100th through the form.
    await db
      .insert(rateLimits)
      .values({ key: `signin-fail:account:${user.email}`, count: 99, windowStart: new Date() });
    expect((await signIn(user.email, "otra-mala-1", randomIp())).status).toBe(401);
    // Past the limit no password signs in directly: every one gets the e-mailed-code step (sign-in-step-up test).
    for (const password of [user.password, "otra-mala-2"]) {
      const stepUp = await signIn(user.email, password, randomIp());
      expect(stepUp.status).toBe(200);
      expect(stepUp.body).toMatchObject({ intent: "step-up", step: "email-code" });
      expect(sessionCookieOf(stepUp.headers)).toBeUndefined();
    }
  });

  it("refuses an address after 50 failures across accounts; successes from it do not count", async () => {
    const ip = randomIp();
    const user = await createTestUser();
    for (let attempt = 1; attempt <= 30; attempt++)
      expect((await signIn(user.email, user.password, ip)).status).toBe(302);
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 50; attempt++) {
      statuses.push((await signIn(uniqueEmail("ip-limit"), "clave-incorrecta-1", ip)).status);
    }
    expect(statuses).toEqual(Array.from({ length: 50 }, () => 401));

    const refused = await signIn(user.email, user.password, ip);
    expect(refused.status).toBe(429);
    expect(refused.body?.message).toBe(authTexts.es.rateLimited);
    expect(sessionCookieOf(refused.headers)).toBeUndefined();

    const elsewhere = await signIn(user.email, user.password, randomIp());
    expect(elsewhere.status).toBe(302);
    expect(sessionCookieOf(elsewhere.headers)).toBeDefined();
  });

  it("keys IPv6 clients on their /64, so rotating the host bits does not reset the count", async () => {
    const user = await createTestUser();
    const prefix = randomIp().split(":").slice(0, 4).join(":");
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signIn(user.email, `mala-${attempt}`, `${prefix}::${attempt.toString(16)}`)).status).toBe(
        401,
      );
    }
    expect((await signIn(user.email, user.password, `${prefix}:abcd:1234:5678:9abc`)).status).toBe(429);
    // Another /64 is another client.
    expect((await signIn(user.email, user.password, randomIp())).status).toBe(302);
  });
});

describe("sign-up rate limit (/auth, intent=signup)", () => {
  it("allows 30 sign-ups per IP per hour (a reception desk) and creates no account for the 31st", async () => {
    const db = await getDb();
    const ip = randomIp();
    const landings: Array<[number, string | null]> = [];
    for (let attempt = 1; attempt <= 30; attempt++) {
      const result = await signUp(uniqueEmail("alta"), ip);
      landings.push([result.status, result.location]);
    }
    expect(landings).toEqual(Array.from({ length: 30 }, () => [302, "/paciente"]));

    const lastEmail = uniqueEmail("alta-31");
    const refused = await signUp(lastEmail, ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      ok: false,
      intent: "signup",
      code: "RATE_LIMITED",
      message: authTexts.es.rateLimited,
    });
    expect(sessionCookieOf(refused.headers)).toBeUndefined();
    expect(await db.select({ id: users.id }).from(users).where(eq(users.email, lastEmail))).toHaveLength(0);

    // The limit is per IP: the same person from another network can sign up.
    const elsewhere = await signUp(lastEmail, randomIp());
    expect(elsewhere.status).toBe(302);
    expect(await db.select({ id: users.id }).from(users).where(eq(users.email, lastEmail))).toHaveLength(1);
  }, 60_000);
});

function requestReset(email: string, ip: string) {
  return settle<{ ok: boolean; message?: string }>(() =>
    forgotPasswordAction(routeArgs(clientForm("/auth/recuperar", { email }, { ip }))),
  );
}

describe("password reset request rate limits (/auth/recuperar)", () => {
  it("sends at most 3 reset mails per account per hour (from any IPs), then answers 429", async () => {
    const db = await getDb();
    const user = await createTestUser();
    const answers: Array<[number, unknown]> = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const result = await requestReset(user.email, randomIp());
      answers.push([result.status, result.body]);
    }
    expect(answers).toEqual(Array.from({ length: 3 }, () => [200, { ok: true }]));
    const fourth = await requestReset(user.email, randomIp());
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({
      ok: false,
      code: "RATE_LIMITED",
      message: "Demasiados intentos. Espera unos minutos e inténtalo nuevamente.",
    });

    const mails = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(eq(outbox.kind, "email"), like(outbox.idempotencyKey, `reset:${user.id}:%`)));
    expect(mails).toHaveLength(3);
  });

  it("allows 10 requests per IP per hour, answering the same for unknown addresses", async () => {
    const ip = randomIp();
    const user = await createTestUser();
    const answers: Array<[number, unknown]> = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      const result = await requestReset(uniqueEmail("nadie"), ip);
      answers.push([result.status, result.body]);
    }
    expect(answers).toEqual(Array.from({ length: 10 }, () => [200, { ok: true }]));
    const refused = await requestReset(user.email, ip);
    expect(refused.status).toBe(429);
    // Refused on its IP key: nothing was counted (or stored) against the account.
    const db = await getDb();
    const accountRows = await db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `reset:account:${user.email}`));
    expect(accountRows).toEqual([]);
  });
});

describe("verification e-mail resend rate limit (/paciente action)", () => {
  it("resends 3 times per account per hour, then answers 429", async () => {
    const db = await getDb();
    const user = await createTestUser({ verified: false });
    const resend = () =>
      settle<{ resent: boolean; message: string }>(() =>
        dashboardAction(routeArgs(clientForm("/paciente", {}, { ip: randomIp(), cookie: user.cookie }))),
      );
    const answers: Array<[number, boolean]> = [];
    let fourth: Awaited<ReturnType<typeof resend>>;

    // The link is a JWT with a one-second resolution: a few seconds between clicks give each resend its own link.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      for (let attempt = 1; attempt <= 3; attempt++) {
        vi.setSystemTime(Date.now() + 2_000);
        const result = await resend();
        answers.push([result.status, result.body.resent]);
      }
      vi.setSystemTime(Date.now() + 2_000);
      fourth = await resend();
    } finally {
      vi.useRealTimers();
    }
    expect(answers).toEqual(Array.from({ length: 3 }, () => [200, true]));
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({
      resent: false,
      message: "Ya te enviamos varios correos. Espera un rato antes de pedir otro.",
    });

    // One mail from the sign-up plus the three resends; nothing for the refused one.
    const mails = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(like(outbox.idempotencyKey, `verify:${user.id}:%`));
    expect(mails).toHaveLength(4);
  });
});

function apiPost(path: string, body: Record<string, unknown>, cookie?: string) {
  return settle(() => betterAuthAction(routeArgs(clientJson(path, body, { cookie }))));
}

describe("Better Auth endpoints we wrap are not reachable over HTTP", () => {
  it("answers 404 for sign-in, sign-up, reset, verification, password and profile endpoints", async () => {
    const user = await createTestUser();
    const attempts: Array<[string, Record<string, unknown>]> = [
      ["/api/auth/sign-in/email", { email: user.email, password: user.password }],
      ["/api/auth/sign-up/email", { email: uniqueEmail("api"), password: "clave-segura-2026", name: "Api" }],
      ["/api/auth/request-password-reset", { email: user.email, redirectTo: "/auth/restablecer" }],
      ["/api/auth/reset-password", { token: "x".repeat(24), newPassword: "otra-clave-2026" }],
      ["/api/auth/send-verification-email", { email: user.email }],
      ["/api/auth/change-password", { currentPassword: user.password, newPassword: "otra-clave-2026" }],
      ["/api/auth/update-user", { name: "Cambiado" }],
      ["/api/auth/change-email", { newEmail: uniqueEmail("cambio") }],
      ["/api/auth/delete-user", {}],
      ["/api/auth/two-factor/enable", { password: user.password }],
      ["/api/auth/two-factor/disable", { password: user.password }],
      ["/api/auth/two-factor/verify-totp", { code: "123456" }],
      ["/api/auth/two-factor/verify-backup-code", { code: "abcde-fghij" }],
      // Reachable directly before the hardening (ADR 007): outside the per-account limits of our actions.
      ["/api/auth/two-factor/generate-backup-codes", { password: user.password }],
      ["/api/auth/two-factor/get-totp-uri", { password: user.password }],
      ["/api/auth/two-factor/send-otp", {}],
      ["/api/auth/two-factor/verify-otp", { code: "123456" }],
      ["/api/auth/verify-password", { password: user.password }],
      ["/api/auth/sign-in/social", { provider: "google", callbackURL: "/auth/callback" }],
      ["/api/auth/link-social", { provider: "google" }],
      ["/api/auth/list-sessions", {}],
      ["/api/auth/revoke-sessions", {}],
      ["/api/auth/get-session", {}],
      ["/api/auth/update-session", {}],
      // The sign-in step-up's session maker (ADR 031): only the /auth action, with the challenge cookie's value.
      ["/api/auth/sign-in/step-up", { challenge: "x".repeat(43), code: "123456" }],
    ];
    const answers: string[] = [];
    for (const [path, body] of attempts) {
      const result = await apiPost(path, body, user.cookie);
      answers.push(`${path} → ${result.status}, cookies: ${result.headers.getSetCookie().length}`);
    }
    expect(answers).toEqual(attempts.map(([path]) => `${path} → 404, cookies: 0`));
    // Nothing changed behind the 404s.
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row?.firstName).toBe(user.firstName);
  });

  it("does not reach sign-in through path variants either, while the handler itself works", async () => {
    const user = await createTestUser();
    const variants = [
      "/api/auth/sign-in/email/",
      "/api/auth/sign-in/email//",
      "/api/auth//sign-in/email",
      "/api/auth/sign-in//email",
      "/api/auth/./sign-in/email",
      "/api/auth/x/../sign-in/email",
      "/api/auth/sign-in/email?x=1",
      "/api/auth/SIGN-IN/EMAIL",
      "/api/auth/sign-in%2Femail",
      "/api/auth/sign-in/%65mail",
    ];
    const signedIn: string[] = [];
    for (const path of variants) {
      const result = await apiPost(path, { email: user.email, password: user.password });
      const sessionCookies = result.headers
        .getSetCookie()
        .filter((cookie) => cookie.includes("session_token="));
      if (result.status < 400 || sessionCookies.length > 0) signedIn.push(`${path} → ${result.status}`);
    }
    expect(signedIn).toEqual([]);

    // Control: the route does serve the endpoints a browser reaches by itself (a verification link here).
    const link = await settle(() =>
      betterAuthLoader(routeArgs(clientGet("/api/auth/verify-email?token=no-es-valido"))),
    );
    expect(link.status).not.toBe(404);
  });
});
