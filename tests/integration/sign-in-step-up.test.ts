import { and, asc, eq, like } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { outbox, signInStepUps } from "~/db/schema";
import { getAuth } from "~/features/auth/auth-instance.server";
import { openPayload } from "~/features/outbox/outbox.server";
import { authTexts } from "~/i18n/auth-messages";
import { loadSessionUser } from "~/lib/auth/session.server";
import { action as authAction } from "~/routes/_auth/auth";
import { clientForm, clientGet, randomIp } from "../setup/clients";
import { CookieJar } from "../setup/cookie-jar";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser, type TestUser } from "../setup/users";

// ADR 031: 100 wrong passwords from many addresses locked the owner out for an hour (429 with the right
// password from anywhere). Past the per-account limit the right password now passes with a step-up: the account's
// second factor, or a one-time code e-mailed to the owner.

type AuthBody = { ok?: boolean; intent?: string; step?: string; code?: string; message?: string };

const ACCOUNT_LIMIT = 100;

beforeAll(async () => {
  await getDb();
});
afterAll(closeDb);

async function post(fields: Record<string, string>, ip: string, jar?: CookieJar) {
  const result = await settle<AuthBody>(() =>
    authAction(routeArgs(clientForm("/auth", fields, { ip, cookie: jar?.header() || undefined }))),
  );
  jar?.store(result.headers);
  return result;
}

const signIn = (user: { email: string }, password: string, ip: string, jar?: CookieJar) =>
  post({ intent: "signin", email: user.email, password }, ip, jar);

const enterCode = (code: string, ip: string, jar: CookieJar) => post({ intent: "step-up", code }, ip, jar);

/** Set-Cookie headers with their values blanked: what an answer looks like apart from random values. */
const cookieShapes = (headers: Headers) =>
  headers.getSetCookie().map((cookie) => cookie.replace(/=[^;]*/, "=…"));

function sessionCookieOf(headers: Headers) {
  return headers.getSetCookie().find((cookie) => /^clinica\.session_token=[^;]/.test(cookie));
}

/** The attacker's spray: one wrong password from each of `count` addresses (each under its per-address limits). */
async function spray(user: TestUser, count: number) {
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= count; attempt++) {
    statuses.push((await signIn(user, `adivinanza-${attempt}`, randomIp())).status);
  }
  return statuses;
}

async function mailsTo(userId: string, kind: "signin-code" | "signin-alert") {
  const db = await getDb();
  return db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), like(outbox.idempotencyKey, `${kind}:${userId}:%`)))
    .orderBy(asc(outbox.createdAt));
}

async function mailedCode(userId: string, nth = 0): Promise<string> {
  const mails = await mailsTo(userId, "signin-code");
  // The body is sealed in the row (ADR 029): opened here as the worker's handler opens it.
  const { payload, secret } = openPayload(mails[nth]?.payload ?? {});
  const text = String((secret as { text?: unknown } | undefined)?.text ?? payload.text ?? "");
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in the mail: ${text}`);
  return code;
}

/** A spray of ACCOUNT_LIMIT wrong passwords from as many addresses: the account is past its limit. */
async function lockedAccount() {
  const user = await createTestUser({ firstName: "Olga" });
  expect(await spray(user, ACCOUNT_LIMIT)).toEqual(Array.from({ length: ACCOUNT_LIMIT }, () => 401));
  return user;
}

describe("past the per-account sign-in limit", () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await lockedAccount();
  }, 120_000);

  it("asks the owner's right password from a fresh address for an e-mailed code (not a 429), which signs in once", async () => {
    const ownerJar = new CookieJar();
    const stepUp = await signIn(owner, owner.password, randomIp(), ownerJar);
    expect(stepUp.status).toBe(200);
    expect(stepUp.body).toEqual({ ok: true, intent: "step-up", step: "email-code" });
    expect(sessionCookieOf(stepUp.headers)).toBeUndefined();
    expect(await mailsTo(owner.id, "signin-code")).toHaveLength(1);
    const code = await mailedCode(owner.id);
    const [mail] = await mailsTo(owner.id, "signin-code");
    expect(mail!.payload).toMatchObject({ to: owner.email });
    expect(String(mail!.payload.subject)).toMatch(/^Tu código para ingresar · /);

    // The code is stored only as a keyed hash.
    const db = await getDb();
    const [row] = await db.select().from(signInStepUps).where(eq(signInStepUps.userId, owner.id));
    expect(row!.codeHash).not.toContain(code);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(10 * 60_000);

    const ip = randomIp();
    const usedCookie = ownerJar.header();
    const signedIn = await enterCode(code, ip, ownerJar);
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe("/paciente");
    const session = sessionCookieOf(signedIn.headers)!.split(";")[0]!;
    expect((await loadSessionUser(clientGet("/paciente", { cookie: session })))?.id).toBe(owner.id);

    // Single use: the same challenge and code again open nothing.
    const reuseJar = new CookieJar();
    const reused = await settle<AuthBody>(() =>
      authAction(routeArgs(clientForm("/auth", { intent: "step-up", code }, { ip, cookie: usedCookie }))),
    );
    reuseJar.store(reused.headers);
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe(authTexts.es.invalidStepUpCode);
    expect(sessionCookieOf(reused.headers)).toBeUndefined();
  });

  it("gives a wrong password the same answer, and no code from the attacker's screen passes", async () => {
    const attackerJar = new CookieJar();
    const ip = randomIp();
    const answer = await signIn(owner, "otra-adivinanza-1", ip, attackerJar);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, intent: "step-up", step: "email-code" });
    expect(sessionCookieOf(answer.headers)).toBeUndefined();
    expect(attackerJar.names()).toEqual(["clinica.sign_in_step_up"]);
    // The right password's answer is the same, down to the cookie's attributes (only its random value differs).
    const right = await signIn(owner, owner.password, randomIp());
    expect([right.status, right.body, cookieShapes(right.headers)]).toEqual([
      200,
      answer.body,
      cookieShapes(answer.headers),
    ]);

    // The owner's code (the one just sent) does not pass on the attacker's screen either.
    const ownerCode = await mailedCode(owner.id, 1);
    for (const code of [ownerCode, "000000", "123456"]) {
      const tried = await enterCode(code, ip, attackerJar);
      expect(tried.status).toBe(401);
      expect(tried.body.message).toBe(authTexts.es.invalidStepUpCode);
      expect(sessionCookieOf(tried.headers)).toBeUndefined();
    }
  });

  it("alerts the owner by e-mail exactly once in the lockout window", async () => {
    expect(await spray(owner, 5)).toEqual(Array.from({ length: 5 }, () => 200));
    const alerts = await mailsTo(owner.id, "signin-alert");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.payload).toMatchObject({ to: owner.email });
    expect(String(alerts[0]!.payload.subject)).toMatch(/^Intentos fallidos en tu cuenta · /);
    expect(String(alerts[0]!.payload.text)).toContain("/auth/recuperar");
  });
});

describe("the e-mailed code", () => {
  it("allows 5 attempts, then even the right code is refused; an expired code is refused", async () => {
    const owner = await lockedAccount();
    const jar = new CookieJar();
    await signIn(owner, owner.password, randomIp(), jar);
    const code = await mailedCode(owner.id);
    const ip = randomIp();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = String((Number(code) + attempt) % 1_000_000).padStart(6, "0");
      expect((await enterCode(wrong, ip, jar)).status).toBe(401);
    }
    const exhausted = await enterCode(code, ip, jar);
    expect(exhausted.status).toBe(401);
    expect(sessionCookieOf(exhausted.headers)).toBeUndefined();

    // A new code (the right password again) replaces the old one; past its 10 minutes it is refused too.
    const again = new CookieJar();
    await signIn(owner, owner.password, randomIp(), again);
    const second = await mailedCode(owner.id, 1);
    const db = await getDb();
    await db
      .update(signInStepUps)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signInStepUps.userId, owner.id));
    expect((await enterCode(second, randomIp(), again)).status).toBe(401);
  }, 120_000);
});

describe("an account with two-factor past the limit", () => {
  it("signs in with the right password and its TOTP code, and gets no e-mailed code", async () => {
    const owner = await createTestUser({ firstName: "Tomás" });
    const auth = await getAuth();
    const headers = new Headers({ cookie: owner.cookie });
    const enrolled = await auth.api.enableTwoFactor({ body: { password: owner.password }, headers });
    if (!("totpURI" in enrolled)) throw new Error("TOTP enrolment expected");
    const totp = OTPAuth.URI.parse(enrolled.totpURI) as OTPAuth.TOTP;
    await auth.api.verifyTOTP({ body: { code: totp.generate() }, headers });

    expect(await spray(owner, ACCOUNT_LIMIT)).toEqual(Array.from({ length: ACCOUNT_LIMIT }, () => 401));
    const jar = new CookieJar();
    const ip = randomIp();
    const password = await signIn(owner, owner.password, ip, jar);
    expect(password.status).toBe(200);
    expect(password.body).toMatchObject({ ok: true, intent: "two-factor", step: "two-factor" });
    const signedIn = await post({ intent: "two-factor", code: totp.generate() }, ip, jar);
    expect(signedIn.status).toBe(302);
    expect(sessionCookieOf(signedIn.headers)).toBeDefined();
    expect(await mailsTo(owner.id, "signin-code")).toHaveLength(0);
    expect(await mailsTo(owner.id, "signin-alert")).toHaveLength(1);
  }, 120_000);
});
