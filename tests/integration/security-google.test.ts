import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as OTPAuth from "otpauth";
import { accounts, rateLimits, sessions, users } from "~/db/schema";
import { clientForm, clientGet, randomIp, uniqueEmail } from "../setup/clients";
import { CookieJar } from "../setup/cookie-jar";
import { startFakeOidc, type FakeOidc } from "~/integrations/google/oidc-fake.mjs";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";

// "Continuar con Google" against a real local OpenID provider, driven through our own route loaders.

const APP = "http://localhost:3000";
const REDIRECT_URI = `${APP}/api/auth/callback/google`;

/** App modules, imported once the Google variables are set (env() is cached; the logger reads it on import). */
async function importApp() {
  const [
    client,
    roles,
    testUsers,
    session,
    googleStart,
    betterAuthRoute,
    callback,
    continuePage,
    authPage,
    auth,
  ] = await Promise.all([
    import("~/db/client.server"),
    import("~/db/accounts.server"),
    import("../setup/users"),
    import("~/lib/auth/session.server"),
    import("~/routes/_auth/google-start"),
    import("~/routes/api/auth"),
    import("~/routes/_auth/oauth-callback"),
    import("~/routes/_auth/continue"),
    import("~/routes/_auth/auth"),
    import("~/features/auth/auth-instance.server"),
  ]);
  return {
    getDb: client.getDb,
    closeDb: client.closeDb,
    activeRoleNames: roles.activeRoleNames,
    createTestUser: testUsers.createTestUser,
    loadSessionUser: session.loadSessionUser,
    googleStartLoader: googleStart.loader,
    betterAuthLoader: betterAuthRoute.loader,
    callbackLoader: callback.loader,
    continueLoader: continuePage.loader,
    authLoader: authPage.loader,
    authAction: authPage.action,
    getAuth: auth.getAuth,
  };
}

const googleVariables = [
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "GOOGLE_DISCOVERY_URL",
  "PUBLIC_BASE_URL",
  "AUTH_STAFF_2FA",
] as const;

let oidc: FakeOidc;
let app: Awaited<ReturnType<typeof importApp>>;

beforeAll(async () => {
  oidc = await startFakeOidc({
    port: 0,
    clientId: "clinica-test",
    clientSecret: "clinica-test-secret",
    redirectUris: [REDIRECT_URI],
  });
  Object.assign(process.env, {
    GOOGLE_CLIENT_ID: "clinica-test",
    GOOGLE_CLIENT_SECRET: "clinica-test-secret",
    GOOGLE_DISCOVERY_URL: oidc.discoveryUrl,
    PUBLIC_BASE_URL: APP,
    // The production default: staff must use two-factor (patients here are unaffected).
    AUTH_STAFF_2FA: "required",
  } satisfies Record<(typeof googleVariables)[number], string>);
  app = await importApp();
  await app.getDb();
});
afterAll(async () => {
  await oidc?.close();
  await app?.closeDb();
  for (const name of googleVariables) delete process.env[name];
});

/** A browser: one cookie jar for our site, one for the provider. */
interface Browser {
  site: CookieJar;
  provider: CookieJar;
  ip: string;
}

async function providerFetch(browser: Browser, url: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  const cookie = browser.provider.header();
  if (cookie) headers.set("cookie", cookie);
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  browser.provider.store(response);
  return response;
}

/** Follows the provider's redirects until `stop` says so (by default: when one leaves the provider). */
async function followProvider(
  browser: Browser,
  first: Response,
  stop = (url: URL) => url.origin !== oidc.issuer,
): Promise<URL> {
  let response = first;
  for (let hop = 0; hop < 10; hop++) {
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`expected a redirect, got ${response.status}: ${await response.text()}`);
    }
    const next = new URL(location, response.url);
    if (stop(next)) return next;
    response = await providerFetch(browser, next.href);
  }
  throw new Error("too many redirects at the provider");
}

/** Our loaders as this browser: GET with its cookies, storing whatever they set. */
async function siteGet<T>(browser: Browser, loader: (args: never) => unknown, url: string) {
  const result = await settle<T>(() =>
    loader(routeArgs(clientGet(url, { ip: browser.ip, cookie: browser.site.header() }))),
  );
  browser.site.store(result.headers);
  return result;
}

type Choice = { email: string; givenName?: string; familyName?: string; verified?: boolean } | "cancel";

/** /auth/google?popup=1 → provider login form → submit (or cancel) → the provider's redirect to our callback. */
async function reachCallback(browser: Browser, choice: Choice) {
  const start = await siteGet(browser, app.googleStartLoader, "/auth/google?popup=1");
  expect(start.status).toBe(302);
  const authorize = new URL(start.location!);
  expect(authorize.origin).toBe(oidc.issuer);
  expect(authorize.searchParams.get("redirect_uri")).toBe(REDIRECT_URI);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("state")).toBeTruthy();
  expect(start.headers.getSetCookie().length).toBeGreaterThan(0);

  const interaction = await followProvider(browser, await providerFetch(browser, authorize.href), (url) =>
    url.pathname.startsWith("/interaction/"),
  );
  expect(interaction.origin).toBe(oidc.issuer);
  const page = await providerFetch(browser, interaction.href);
  expect(page.status).toBe(200);
  await page.text();

  const form =
    choice === "cancel"
      ? new URLSearchParams({ email: "", action: "cancel" })
      : new URLSearchParams({
          email: choice.email,
          given_name: choice.givenName ?? "",
          family_name: choice.familyName ?? "",
          action: "login",
          ...(choice.verified === false ? {} : { email_verified: "on" }),
        });
  const submitted = await providerFetch(browser, interaction.href, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const back = await followProvider(browser, submitted);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
  expect(back.searchParams.get("state")).toBe(authorize.searchParams.get("state"));
  return back;
}

/** The whole flow; returns where our Better Auth callback sent the browser. */
async function googleFlow(browser: Browser, choice: Choice) {
  const back = await reachCallback(browser, choice);
  const callback = await siteGet(browser, app.betterAuthLoader, back.href);
  expect(callback.status).toBe(302);
  const landing = new URL(callback.location!, APP);
  expect(landing.origin).toBe(APP);
  return { landing, callback };
}

type CallbackData = { message: { type: string; error?: string }; inPopup: boolean; next: string };

function newBrowser(): Browser {
  return { site: new CookieJar(), provider: new CookieJar(), ip: randomIp() };
}

async function googleAccountsOf(userId: string) {
  const db = await app.getDb();
  return db
    .select()
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "google")));
}

describe("Google sign-in (popup flow)", () => {
  it("creates a patient account with the names from Google and signs it in", async () => {
    const browser = newBrowser();
    const email = uniqueEmail("google");
    const { landing, callback } = await googleFlow(browser, {
      email,
      givenName: "Valentina",
      familyName: "Araya Núñez",
    });
    expect(`${landing.pathname}${landing.search}`).toBe("/auth/callback?popup=1");
    expect(
      callback.headers.getSetCookie().some((cookie) => cookie.startsWith("clinica.session_token=")),
    ).toBe(true);
    expect(browser.site.get("clinica.session_token")).toBeTruthy();

    const page = await siteGet<CallbackData>(browser, app.callbackLoader, landing.href);
    expect(page.body.message).toEqual({ type: "oauth_success" });
    expect(page.body.inPopup).toBe(true);
    expect(page.body.next).toBe("/auth/continuar");

    const next = await siteGet(browser, app.continueLoader, `${APP}${page.body.next}`);
    expect(next.status).toBe(302);
    expect(next.location).toBe("/paciente");

    const db = await app.getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ firstName: "Valentina", lastName: "Araya Núñez", emailVerified: true });
    expect(await app.activeRoleNames(db, user!.id)).toEqual(["paciente"]);
    expect(await googleAccountsOf(user!.id)).toHaveLength(1);
    expect((await app.loadSessionUser(clientGet("/paciente", { cookie: browser.site.header() })))?.id).toBe(
      user!.id,
    );
  });

  it("does not link an existing account whose e-mail was never verified", async () => {
    const existing = await app.createTestUser({ verified: false });
    const browser = newBrowser();
    const { landing } = await googleFlow(browser, { email: existing.email, givenName: "Intruso" });
    expect(landing.pathname).toBe("/auth/callback");
    expect(landing.searchParams.get("error")).toBe("account_not_linked");
    expect(landing.searchParams.get("popup")).toBe("1");
    expect(browser.site.get("clinica.session_token")).toBeUndefined();

    const page = await siteGet<CallbackData>(browser, app.callbackLoader, landing.href);
    expect(page.body.message.type).toBe("oauth_error");
    expect(page.body.next).toMatch(/^\/auth\?error=/);
    expect(await googleAccountsOf(existing.id)).toHaveLength(0);

    const db = await app.getDb();
    const [user] = await db.select().from(users).where(eq(users.id, existing.id));
    expect(user).toMatchObject({ firstName: existing.firstName, emailVerified: false });
  });

  it("links an existing account whose e-mail is verified and signs into it", async () => {
    const existing = await app.createTestUser({ verified: true, firstName: "Rosa" });
    const browser = newBrowser();
    const { landing } = await googleFlow(browser, {
      email: existing.email,
      givenName: "Rosa",
      familyName: "Díaz",
    });
    expect(`${landing.pathname}${landing.search}`).toBe("/auth/callback?popup=1");

    const page = await siteGet<CallbackData>(browser, app.callbackLoader, landing.href);
    expect(page.body.message).toEqual({ type: "oauth_success" });
    expect(await googleAccountsOf(existing.id)).toHaveLength(1);
    expect((await app.loadSessionUser(clientGet("/paciente", { cookie: browser.site.header() })))?.id).toBe(
      existing.id,
    );
  });

  it("refuses a callback delivered to another browser (login CSRF: no state cookie, no session)", async () => {
    const attacker = newBrowser();
    const back = await reachCallback(attacker, { email: uniqueEmail("atacante"), givenName: "Atacante" });
    expect(back.searchParams.get("code")).toBeTruthy();

    const victim = newBrowser();
    const callback = await siteGet(victim, app.betterAuthLoader, back.href);
    expect(callback.headers.getSetCookie().filter((cookie) => cookie.includes("session_token="))).toEqual([]);
    expect(victim.site.get("clinica.session_token")).toBeUndefined();
    expect(callback.status).toBe(302);
    const landing = new URL(callback.location!, APP);
    expect(landing.origin).toBe(APP);
    expect(landing.pathname).toBe("/auth/callback");
    expect(landing.searchParams.get("error")).toBe("state_mismatch");
    const page = await siteGet<CallbackData>(victim, app.callbackLoader, landing.href);
    expect(page.body.message).toEqual({ type: "oauth_error", error: "state_mismatch" });
  });

  it("reports access_denied when the person cancels at the provider", async () => {
    const browser = newBrowser();
    const { landing } = await googleFlow(browser, "cancel");
    expect(landing.pathname).toBe("/auth/callback");
    expect(browser.site.get("clinica.session_token")).toBeUndefined();

    const page = await siteGet<CallbackData>(browser, app.callbackLoader, landing.href);
    expect(page.body.message).toEqual({ type: "oauth_error", error: "access_denied" });
    expect(page.body.next).toBe("/auth?error=access_denied");
  });
});

async function sessionCount(userId: string) {
  const db = await app.getDb();
  return (await db.select().from(sessions).where(eq(sessions.userId, userId))).length;
}

/** Turns TOTP on for the account for real (enrol + first code) and returns a code generator. */
async function enrolTotp(user: { email: string; password: string; cookie: string }) {
  const auth = await app.getAuth();
  const headers = new Headers({ cookie: user.cookie });
  const enrolled = await auth.api.enableTwoFactor({ body: { password: user.password }, headers });
  if (!("totpURI" in enrolled)) throw new Error("TOTP enrolment expected");
  const totp = OTPAuth.URI.parse(enrolled.totpURI) as OTPAuth.TOTP;
  await auth.api.verifyTOTP({ body: { code: totp.generate() }, headers });
  return totp;
}

describe("Google sign-in and two-factor (issue 7: no bypass of the second factor)", () => {
  it("asks an account with two-factor for its code before any session exists", async () => {
    const asesor = await app.createTestUser({ roles: ["asesor"], firstName: "Inés" });
    const totp = await enrolTotp(asesor);
    const sessionsBefore = await sessionCount(asesor.id);
    const browser = newBrowser();
    const { landing, callback } = await googleFlow(browser, { email: asesor.email, givenName: "Inés" });

    // No usable session: only the pending challenge.
    expect(`${landing.pathname}${landing.search}`).toBe("/auth/callback?popup=1&paso=2fa");
    expect(browser.site.get("clinica.session_token")).toBeUndefined();
    expect(browser.site.get("clinica.two_factor")).toBeTruthy();
    // Even the session cookie the callback first set leads nowhere: its session row is gone.
    const firstCookie = callback.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("clinica.session_token=") && !/max-age=0/i.test(cookie));
    const firstPair = firstCookie?.split(";")[0] ?? "clinica.session_token=ninguna";
    expect(await app.loadSessionUser(clientGet("/funnel", { cookie: firstPair }))).toBeNull();
    expect(await sessionCount(asesor.id)).toBe(sessionsBefore);

    const page = await siteGet<CallbackData>(browser, app.callbackLoader, landing.href);
    expect(page.body.message).toEqual({ type: "oauth_two_factor" });
    expect(page.body.next).toBe("/auth?paso=2fa");
    const authPage = await siteGet<{ twoFactorPending: boolean }>(
      browser,
      app.authLoader,
      `${APP}/auth?paso=2fa`,
    );
    expect(authPage.body.twoFactorPending).toBe(true);

    const codeStep = (code: string) =>
      settle<{ error?: string }>(() =>
        app.authAction(
          routeArgs(
            clientForm(
              "/auth?paso=2fa",
              { intent: "two-factor", code },
              { ip: browser.ip, cookie: browser.site.header() },
            ),
          ),
        ),
      );
    const wrong = await codeStep(totp.generate({ timestamp: Date.now() - 10 * 60_000 }));
    expect(wrong.status).toBe(401);
    expect(browser.site.get("clinica.session_token")).toBeUndefined();

    const right = await codeStep(totp.generate());
    browser.site.store(right.headers);
    expect(right.status).toBe(302);
    expect(right.location).toBe("/funnel");
    expect((await app.loadSessionUser(clientGet("/funnel", { cookie: browser.site.header() })))?.id).toBe(
      asesor.id,
    );
  });

  // dentista: (a dentist opens any record by RUT, so Google alone must not sign one in either).
  it.each(["admin", "dentista"] as const)(
    "refuses Google for staff who must use two-factor but have not enrolled (%s)",
    async (role) => {
      const staff = await app.createTestUser({ roles: [role] });
      const sessionsBefore = await sessionCount(staff.id);
      const browser = newBrowser();
      const { landing } = await googleFlow(browser, { email: staff.email });
      expect(landing.searchParams.get("error")).toBe("two_factor_enrolment_required");
      expect(browser.site.get("clinica.session_token")).toBeUndefined();
      const page = await siteGet<CallbackData>(browser, app.callbackLoader, landing.href);
      expect(page.body.message).toEqual({ type: "oauth_error", error: "two_factor_enrolment_required" });
      expect(await sessionCount(staff.id)).toBe(sessionsBefore);
    },
  );

  it("does not count a look-alike cookie as the pending challenge", async () => {
    const db = await app.getDb();
    const pendingKeys = async () =>
      (await db.select({ key: rateLimits.key }).from(rateLimits))
        .map((row) => row.key)
        .filter((key) => key.startsWith("2fa:pending:"))
        .toSorted();
    const before = await pendingKeys();
    const attempt = (cookie: string) =>
      settle(() =>
        app.authAction(
          routeArgs(
            clientForm("/auth", { intent: "two-factor", code: "123456" }, { ip: randomIp(), cookie }),
          ),
        ),
      );
    // Before: "x_two_factor=…" matched the limiter's substring search, so a forged cookie chose its own key.
    const results: number[] = [];
    for (let index = 0; index < 3; index++)
      results.push((await attempt(`x_two_factor=forjada-${index}`)).status);
    expect(results).toEqual([401, 401, 401]);
    expect(await pendingKeys()).toEqual(before);
  });
});
