import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSetCookie } from "../setup/cookie-jar";
import { uniqueEmail } from "../setup/clients";
import {
  formHeaders,
  httpForm,
  httpRequest,
  projectRoot,
  startProdServer,
  type ProdServer,
} from "../setup/prod-server";

// DESIGN §6 on the real production server (server.mjs + build/): client IP only from trusted proxies, cookie flags,
// security headers, same-origin redirects, body limits.

const DEMO_EMAIL = "paciente@clinica.example";
const DEMO_ADMIN = "admin@clinica.example";
const DEMO_PASSWORD = "clinica-demo-2026";

let dataDir = "";

/**
 * The site over http, exposed directly: the only trusted proxy is another machine (TRUST_PROXY=10.255.255.1), so
 * whoever connects is the client. Demo mode (SEED_DEMO=1) with its accounts on the embedded database. Each test connects from its own loopback
 * address (127.0.0.x), which is a distinct client IP for the rate limits.
 */
let site: ProdServer;
/** PUBLIC_BASE_URL=https://clinica.test behind a TLS proxy on this host (TRUST_PROXY=loopback). */
let tls: ProdServer;

const TLS_HEADERS = { host: "clinica.test", "x-forwarded-proto": "https" };

const siteOrigin = () => `http://127.0.0.1:${site.port}`;

function sessionCookie(cookies: string[], name = "clinica.session_token") {
  const header = cookies.find((cookie) => cookie.startsWith(`${name}=`));
  return header ? parseSetCookie(header) : undefined;
}

/** A POST of the /auth form to the http site from loopback address `from`. */
function siteAuthPost(from: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return httpForm(site.port, "/auth", fields, { origin: siteOrigin(), headers, from });
}

/** A POST of the /auth form to the https site, through the proxy (X-Forwarded-For carries the client chain). */
function tlsAuthPost(
  forwardedFor: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return httpForm(tls.port, "/auth", fields, {
    origin: "https://clinica.test",
    headers: { ...TLS_HEADERS, "x-forwarded-for": forwardedFor, ...headers },
  });
}

const randomOctet = () => String(1 + Math.floor(Math.random() * 250));
const forgedIp = () => `${randomOctet()}.${randomOctet()}.${randomOctet()}.${randomOctet()}`;
const wrongSignIn = () => ({
  intent: "signin",
  email: uniqueEmail("servidor"),
  password: "clave-incorrecta-1",
});
// 50 failed sign-ins per address in 15 minutes (a shared network may sign in many times; only failures count).
const FIFTY_REFUSED_THEN_LIMITED = [...Array.from({ length: 50 }, () => 401), 429];

/** Signs the demo patient in from `from` and returns its Cookie header value. */
async function demoPatientCookie(from: string) {
  const response = await siteAuthPost(from, {
    intent: "signin",
    email: DEMO_EMAIL,
    password: DEMO_PASSWORD,
  });
  const session = sessionCookie(response.cookies);
  if (response.status !== 302 || !session) throw new Error(`demo sign-in failed: ${response.status}`);
  return `${session.name}=${session.value}`;
}

async function adminCookie() {
  const response = await siteAuthPost("127.0.0.19", {
    intent: "signin",
    email: DEMO_ADMIN,
    password: DEMO_PASSWORD,
  });
  const session = sessionCookie(response.cookies);
  if (response.status !== 302 || !session) throw new Error(`admin sign-in failed: ${response.status}`);
  return `${session.name}=${session.value}`;
}

const WEBHOOK_SECRET = "webhook-secret-for-the-server-0123";
/** The secret being rotated out (ADR 034): still accepted while WHATSAPP_WEBHOOK_SECRET_PREVIOUS holds it. */
const PREVIOUS_WEBHOOK_SECRET = "webhook-secret-rotated-out-456789";
/** The provider's addresses: one address and a range; every other client is refused (ADR 034). */
const WEBHOOK_ALLOW_IPS = "127.0.0.18, 127.0.3.0/24";

/** An inbound WhatsApp batch of one text message from `from`. */
function inboundBody(from: string) {
  return JSON.stringify({
    results: [
      {
        from,
        to: "56900000018",
        integrationType: "WHATSAPP",
        receivedAt: "2026-03-01T12:00:00.000+0000",
        messageId: randomUUID(),
        message: { type: "TEXT", text: "Hola" },
      },
    ],
  });
}

/** A provider's POST to a webhook of the demo site, from loopback address `from`. */
function webhookPost(route: string, secret: string, from: string, body: string) {
  return httpRequest(site.port, route, {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-secret": secret },
    body,
    from,
  });
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("production server security", () => {
  beforeAll(async () => {
    if (!existsSync(path.join(projectRoot, "build/server/index.js"))) {
      throw new Error("run `npx react-router build` first");
    }
    dataDir = mkdtempSync(path.join(tmpdir(), "clinica-security-"));
    const started = await Promise.allSettled([
      startProdServer({
        DATA_DIR: dataDir,
        TRUST_PROXY: "10.255.255.1",
        SEED_DEMO: "1",
        WHATSAPP_WEBHOOK_SECRET: WEBHOOK_SECRET,
        WHATSAPP_WEBHOOK_SECRET_PREVIOUS: PREVIOUS_WEBHOOK_SECRET,
        WHATSAPP_WEBHOOK_ALLOW_IPS: WEBHOOK_ALLOW_IPS,
      }),
      startProdServer({
        DATA_DIR: "memory://",
        PUBLIC_BASE_URL: "https://clinica.test",
        TRUST_PROXY: "loopback",
      }),
    ]);
    // Keep whatever started, so afterAll stops it even when the other one failed.
    const [first, second] = started.map((outcome) =>
      outcome.status === "fulfilled" ? outcome.value : undefined,
    );
    site = first!;
    tls = second!;
    const failure = started.find((outcome) => outcome.status === "rejected");
    if (failure) throw failure.reason;
  }, 150_000);

  afterAll(async () => {
    await Promise.all([site?.stop(), tls?.stop()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe("client IP", () => {
    it("exposed directly, forged X-Forwarded-For, x-clinica-client-ip and X-Real-IP do not reset the per-IP limit", async () => {
      const responses = [];
      const claimed: string[] = [];
      for (let attempt = 1; attempt <= 51; attempt++) {
        claimed.push(forgedIp());
        responses.push(
          await siteAuthPost("127.0.0.10", wrongSignIn(), {
            "x-forwarded-for": claimed.at(-1)!,
            "x-clinica-client-ip": forgedIp(),
            "x-real-ip": forgedIp(),
          }),
        );
      }
      expect(responses.map((response) => response.status)).toEqual(FIFTY_REFUSED_THEN_LIMITED);
      expect(responses.at(-1)?.body).toContain(
        "Demasiados intentos. Espera unos minutos e inténtalo nuevamente.",
      );
      // Another client is not affected, even claiming an address the limited one claimed: claims are not keys.
      const other = await siteAuthPost("127.0.0.11", wrongSignIn(), { "x-forwarded-for": claimed[0]! });
      expect(other.status).toBe(401);
    });

    // Behind a load balancer on another host that TRUST_PROXY does not list, every client shares
    // the balancer's address (one rate-limit bucket). The operator is told once, at the first such request.
    it("logs one warning at the first X-Forwarded-For from a peer TRUST_PROXY does not trust", async () => {
      for (const from of ["127.0.0.13", "127.0.0.14"]) {
        await httpRequest(site.port, "/healthz", { from, headers: { "x-forwarded-for": forgedIp() } });
      }
      const warnings = site
        .output()
        .split("\n")
        .filter((line) => line.includes("TRUST_PROXY"));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, peer: expect.stringMatching(/^127\./) });
      // Through the trusted proxy on this host (TRUST_PROXY=loopback) nothing is wrong: no warning.
      expect(tls.output()).not.toContain("TRUST_PROXY");
    });

    it("behind the proxy, forged entries before the proxy's own do not reset the per-IP limit", async () => {
      // The proxy appends the real client (198.51.100.77); whatever the client put before it is forged.
      const statuses: number[] = [];
      for (let attempt = 1; attempt <= 51; attempt++) {
        const response = await tlsAuthPost(`${forgedIp()}, ${forgedIp()}, 198.51.100.77`, wrongSignIn(), {
          "x-clinica-client-ip": forgedIp(),
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual(FIFTY_REFUSED_THEN_LIMITED);
      // Another real client behind the same proxy is not affected.
      expect((await tlsAuthPost("198.51.100.78", wrongSignIn())).status).toBe(401);
    });
  });

  describe("session cookie and headers", () => {
    it("over http: clinica.session_token is HttpOnly, SameSite=Lax, Path=/ and not Secure", async () => {
      const response = await siteAuthPost("127.0.0.12", {
        intent: "signin",
        email: DEMO_EMAIL,
        password: DEMO_PASSWORD,
      });
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe("/paciente");
      const session = sessionCookie(response.cookies);
      expect(session).toBeDefined();
      expect(session!.value).not.toBe("");
      expect(session!.attributes.has("httponly")).toBe(true);
      expect(session!.attributes.get("samesite")?.toLowerCase()).toBe("lax");
      expect(session!.attributes.get("path")).toBe("/");
      expect(session!.attributes.has("secure")).toBe(false);
      expect(session!.attributes.has("domain")).toBe(false);
      const cookie = `${session!.name}=${session!.value}`;

      // Signed-in pages are never stored by caches; anonymous visitors are sent to sign in.
      const page = await httpRequest(site.port, "/paciente", { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(page.headers["cache-control"]).toBe("no-store");
      const anonymous = await httpRequest(site.port, "/paciente");
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.location).toBe("/auth?redirectTo=%2Fpaciente");
    });

    it("sends the security headers on pages, with a fresh CSP nonce on every response", async () => {
      const nonces: string[] = [];
      for (let round = 0; round < 2; round++) {
        const page = await httpRequest(site.port, "/");
        expect(page.status).toBe(200);
        expect(page.headers["x-content-type-options"]).toBe("nosniff");
        expect(page.headers["x-frame-options"]).toBe("DENY");
        expect(page.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
        expect(page.headers["x-powered-by"]).toBeUndefined();
        expect(page.headers["strict-transport-security"]).toBeUndefined();
        const csp = String(page.headers["content-security-policy"] ?? "");
        expect(csp).toContain("frame-ancestors 'none'");
        const nonce = /script-src 'self' 'nonce-([\w+/=-]+)'/.exec(csp)?.[1];
        expect(nonce).toBeDefined();
        const scriptSrc = csp.split(";").find((directive) => directive.trim().startsWith("script-src"));
        expect(scriptSrc).not.toContain("unsafe-inline");
        expect(page.body).toContain(`nonce="${nonce}"`);
        nonces.push(nonce!);
      }
      // The second response may come from the HTML cache: it still gets its own nonce.
      expect(nonces[0]).not.toBe(nonces[1]);
    });

    it("over https (behind the proxy): __Host-clinica.session_token with Secure, HttpOnly, SameSite=Lax, no Domain; HSTS", async () => {
      const client = "198.51.100.20";
      const email = uniqueEmail("servidor");
      const password = "clave-segura-2026";
      const signUp = await tlsAuthPost(client, {
        intent: "signup",
        firstName: "Segura",
        lastName: "Prueba",
        email,
        password,
      });
      expect(signUp.status).toBe(302);
      expect(sessionCookie(signUp.cookies, "__Host-clinica.session_token")).toBeDefined();

      const signIn = await tlsAuthPost(client, { intent: "signin", email, password });
      expect(signIn.status).toBe(302);
      expect(signIn.headers.location).toBe("/paciente");
      expect(sessionCookie(signIn.cookies)).toBeUndefined();
      const session = sessionCookie(signIn.cookies, "__Host-clinica.session_token");
      expect(session).toBeDefined();
      expect(session!.attributes.has("secure")).toBe(true);
      expect(session!.attributes.has("domain")).toBe(false);
      expect(session!.attributes.has("httponly")).toBe(true);
      expect(session!.attributes.get("samesite")?.toLowerCase()).toBe("lax");
      expect(session!.attributes.get("path")).toBe("/");
      // Every cookie the app sets over https is Secure.
      const insecure = [...signUp.cookies, ...signIn.cookies].filter(
        (header) => !parseSetCookie(header).attributes.has("secure"),
      );
      expect(insecure).toEqual([]);
      // …and carries the __Host- prefix (Secure, Path=/, no Domain: not settable from a subdomain or over http).
      const names = [...signUp.cookies, ...signIn.cookies].map((header) => parseSetCookie(header).name);
      expect(names.filter((name) => !name.startsWith("__Host-clinica."))).toEqual([]);

      const headers = { ...TLS_HEADERS, "x-forwarded-for": client };
      const home = await httpRequest(tls.port, "/", { headers });
      expect(home.status).toBe(200);
      expect(home.headers["strict-transport-security"]).toMatch(/max-age=\d{8,}/);
      expect(home.headers["x-frame-options"]).toBe("DENY");
      expect(String(home.headers["content-security-policy"])).toContain("frame-ancestors 'none'");

      const page = await httpRequest(tls.port, "/paciente", {
        headers: { ...headers, cookie: `${session!.name}=${session!.value}` },
      });
      expect(page.status).toBe(200);
      expect(page.headers["cache-control"]).toBe("no-store");
      expect(page.headers["strict-transport-security"]).toBeDefined();
    });

    it("GET /auth?redirectTo=<another site> and /auth/continuar?redirectTo=… while signed in go to /paciente", async () => {
      const cookie = await demoPatientCookie("127.0.0.18");
      // The last three normalise to //evil.example (a protocol-relative redirect) in a URL parser.
      const targets = [
        "https://evil.example",
        "//evil.example",
        "/\\evil.example",
        "/.//evil.example",
        "/..//evil.example",
        "/%2e%2e//evil.example",
      ];
      const landings: string[] = [];
      for (const target of targets) {
        const response = await httpRequest(site.port, `/auth?redirectTo=${encodeURIComponent(target)}`, {
          headers: { cookie },
        });
        landings.push(`${target} → ${response.status} ${response.headers.location}`);
      }
      expect(landings).toEqual(targets.map((target) => `${target} → 302 /paciente`));
      const continued: string[] = [];
      for (const target of targets) {
        const response = await httpRequest(
          site.port,
          `/auth/continuar?redirectTo=${encodeURIComponent(target)}`,
          { headers: { cookie } },
        );
        continued.push(`${target} → ${response.status} ${response.headers.location}`);
      }
      expect(continued).toEqual(targets.map((target) => `${target} → 302 /paciente`));
      const local = await httpRequest(
        site.port,
        `/auth?redirectTo=${encodeURIComponent("/paciente/citas")}`,
        {
          headers: { cookie },
        },
      );
      expect(local.headers.location).toBe("/paciente/citas");
    });
  });

  describe("redirectTo after signing in", () => {
    it("follows only same-origin paths", async () => {
      const from = "127.0.0.13";
      const email = uniqueEmail("servidor");
      const password = "clave-segura-2026";
      const signUp = await siteAuthPost(from, {
        intent: "signup",
        firstName: "Redirige",
        lastName: "Prueba",
        email,
        password,
      });
      expect(signUp.status).toBe(302);

      const cases: Array<[string, string]> = [
        ["//evil.example", "/paciente"],
        ["https://evil.example", "/paciente"],
        ["/\\evil.example", "/paciente"],
        ["/..//evil.example", "/paciente"],
        ["/%2e%2e//evil.example", "/paciente"],
        ["/paciente/citas?x=1", "/paciente/citas?x=1"],
      ];
      const landings: string[] = [];
      for (const [redirectTo] of cases) {
        const response = await siteAuthPost(from, { intent: "signin", email, password, redirectTo });
        const signedIn = sessionCookie(response.cookies) ? "signed in" : "no session";
        landings.push(`${redirectTo} → ${response.status} ${response.headers.location} ${signedIn}`);
      }
      expect(landings).toEqual(
        cases.map(([redirectTo, expected]) => `${redirectTo} → 302 ${expected} signed in`),
      );
    });
  });

  describe("/dev/correos (demo mode): only for a signed-in admin", () => {
    it("sends visitors to sign in, refuses a patient, shows the kept mails to an admin", async () => {
      const anonymous = await httpRequest(site.port, "/dev/correos");
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.location).toBe("/auth?redirectTo=%2Fdev%2Fcorreos");
      const patient = await httpRequest(site.port, "/dev/correos", {
        headers: { cookie: await demoPatientCookie("127.0.0.20") },
      });
      expect(patient.status).toBe(403);
      expect(patient.body).not.toContain("/api/auth/");
      const admin = await httpRequest(site.port, "/dev/correos", {
        headers: { cookie: await adminCookie() },
      });
      expect(admin.status).toBe(200);
      expect(admin.body).toContain("Correos de demostración");
    });

    it("does not exist outside demo mode, even for an admin", async () => {
      // The https server runs without SEED_DEMO: no demo admin exists there, and the page answers 404 to anyone.
      const page = await httpRequest(tls.port, "/dev/correos", {
        headers: { ...TLS_HEADERS, "x-forwarded-for": "198.51.100.30" },
      });
      expect(page.status).toBe(404);
      const demoAdmin = await tlsAuthPost("198.51.100.30", {
        intent: "signin",
        email: DEMO_ADMIN,
        password: DEMO_PASSWORD,
      });
      expect(demoAdmin.status).toBe(401);
    });
  });

  describe("e-mail verification links (login CSRF)", () => {
    it("verify the address without signing anyone in or replacing the current session", async () => {
      // An attacker signs up and sends the victim the verification link of the attacker's own account.
      const attackerEmail = uniqueEmail("servidor");
      const signUp = await siteAuthPost("127.0.0.21", {
        intent: "signup",
        firstName: "Atacante",
        lastName: "Prueba",
        email: attackerEmail,
        password: "clave-segura-2026",
      });
      expect(signUp.status).toBe(302);
      const mails = await httpRequest(site.port, "/dev/correos", {
        headers: { cookie: await adminCookie() },
      });
      const link = new RegExp(
        `para <span[^>]*>${attackerEmail.replace(/[.+]/g, "\\$&")}</span>[\\s\\S]*?(https?://[^\\s"<]+/api/auth/verify-email\\?[^\\s"<]+)`,
      ).exec(mails.body)?.[1];
      expect(link).toBeDefined();
      const target = new URL(link!.replaceAll("&amp;", "&"));

      // The victim, signed in as the demo patient, opens it.
      const victim = await demoPatientCookie("127.0.0.22");
      const opened = await httpRequest(site.port, `${target.pathname}${target.search}`, {
        headers: { cookie: victim },
        from: "127.0.0.22",
      });
      expect(opened.status).toBe(302);
      expect(opened.cookies.filter((cookie) => cookie.startsWith("clinica.session_token="))).toEqual([]);
      const state = await httpRequest(site.port, "/auth/estado", {
        headers: { cookie: victim, accept: "application/json" },
      });
      expect(JSON.parse(state.body)).toMatchObject({ signedIn: true });
      const page = await httpRequest(site.port, "/paciente", { headers: { cookie: victim } });
      expect(page.status).toBe(200);
      expect(page.body).toContain("Catalina");
      expect(page.body).not.toContain("Atacante");

      // Opened without a session it verifies and still signs nobody in.
      const fresh = await httpRequest(site.port, `${target.pathname}${target.search}`, {
        from: "127.0.0.23",
      });
      expect(fresh.cookies.filter((cookie) => cookie.startsWith("clinica.session_token="))).toEqual([]);
    });
  });

  describe("links in account e-mails", () => {
    it("Better Auth's link endpoints refuse a callbackURL on another site", async () => {
      const cases: Array<[string, string]> = [
        ["/api/auth/reset-password/cualquier-token?callbackURL=https%3A%2F%2Fevil.example%2Frobar", "403"],
        ["/api/auth/reset-password/cualquier-token?callbackURL=%2F%2Fevil.example%2Frobar", "403"],
        ["/api/auth/verify-email?token=malo&callbackURL=https%3A%2F%2Fevil.example", "403"],
        ["/api/auth/verify-email?token=malo&callbackURL=%2F%2Fevil.example", "403"],
        // Control: our own page is fine (and learns the token was bad).
        [
          "/api/auth/reset-password/cualquier-token?callbackURL=%2Fauth%2Frestablecer",
          `302 http://localhost:${site.port}/auth/restablecer?error=INVALID_TOKEN`,
        ],
      ];
      const answers: string[] = [];
      for (const [url] of cases) {
        const response = await httpRequest(site.port, url, { from: "127.0.0.14" });
        answers.push([response.status, response.headers.location].filter(Boolean).join(" "));
      }
      expect(answers).toEqual(cases.map(([, expected]) => expected));
    });

    it("reset mails link to the configured site, whatever Host header the request carried", async () => {
      const response = await httpForm(
        site.port,
        "/auth/recuperar",
        { email: "dentista@clinica.example" },
        { origin: "http://evil.example", headers: { host: "evil.example" }, from: "127.0.0.15" },
      );
      expect(response.status).toBe(200);

      // The demo outbox page (no SMTP in demo mode) shows the mail as it would be sent, to an admin.
      const outbox = await httpRequest(site.port, "/dev/correos", {
        headers: { cookie: await adminCookie() },
      });
      expect(outbox.status).toBe(200);
      const links = [
        ...outbox.body.matchAll(/https?:\/\/[^\s"<]+\/api\/auth\/reset-password\/[^\s"<?]+/g),
      ].map((match) => new URL(match[0]).origin);
      expect(links.length).toBeGreaterThan(0);
      expect(new Set(links)).toEqual(new Set([`http://localhost:${site.port}`]));
      expect(outbox.body).not.toContain("evil.example");
    });
  });

  describe("request limits", () => {
    it("answers 413 to a declared 300 KB body", async () => {
      const big = `intent=signin&email=a%40example.com&password=${"a".repeat(300 * 1024)}`;
      const declared = await httpRequest(site.port, "/auth", {
        method: "POST",
        headers: formHeaders(siteOrigin()),
        body: big,
        from: "127.0.0.16",
      });
      expect(declared.status).toBe(413);
      expect(declared.body).toBe("La solicitud es demasiado grande.");
    });

    it("answers 413 to a 300 KB body streamed without Content-Length", async () => {
      const chunk = "a".repeat(16 * 1024);
      const streamed = await httpRequest(site.port, "/auth", {
        method: "POST",
        headers: formHeaders(siteOrigin()),
        chunks: ["intent=signin&email=a%40example.com&password=", ...Array.from({ length: 19 }, () => chunk)],
        from: "127.0.0.16",
      });
      expect({ status: streamed.status, body: streamed.body.slice(0, 100) }).toEqual({
        status: 413,
        body: "La solicitud es demasiado grande.",
      });
    });

    it("answers 400 with a short Spanish text to a Host header no URL can be made of, logging one warning", async () => {
      for (const host of ["exa mple", "exa|mple", "[::1", "localhost:99999"]) {
        for (const pathname of ["/", "/paciente.data", "/api/auth/get-session"]) {
          const before = site.output().length;
          const response = await httpRequest(site.port, pathname, { headers: { host }, from: "127.0.0.16" });
          expect({ host, pathname, status: response.status, body: response.body }).toEqual({
            host,
            pathname,
            status: 400,
            body: "La solicitud no es válida.",
          });
          const requestId = String(response.headers["x-request-id"]);
          // The server writes the line before it answers; the pipe from its process may deliver it a little later.
          await expect.poll(() => site.output().slice(before), { timeout: 10_000 }).toContain(requestId);
          const lines = site
            .output()
            .slice(before)
            .split("\n")
            .filter((line) => line.includes(requestId));
          expect(lines).toHaveLength(1);
          expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, msg: "invalid Host header" });
          expect(site.output().slice(before)).not.toMatch(/request failed|Invalid URL|"stack"/);
        }
      }
    });

    it("refuses a cross-site form post", async () => {
      const response = await siteAuthPost(
        "127.0.0.17",
        { intent: "signin", email: DEMO_EMAIL, password: DEMO_PASSWORD },
        { origin: "https://evil.example" },
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(sessionCookie(response.cookies)).toBeUndefined();
    });
  });
  describe("WhatsApp reports webhook (server to server)", () => {
    const report = JSON.stringify({
      results: [{ messageId: "not-ours-123", seenAt: "2026-03-01T12:05:00.000+0000" }],
    });

    it("takes a POST without Origin or session that carries the secret, and refuses one without it", async () => {
      const accepted = await httpRequest(site.port, "/api/whatsapp/reports", {
        method: "POST",
        headers: { "content-type": "application/json", "x-webhook-secret": WEBHOOK_SECRET },
        body: report,
        from: "127.0.0.18",
      });
      expect(accepted.status).toBe(200);
      expect(JSON.parse(accepted.body)).toEqual({ received: 1, updated: 0 });
      expect(accepted.cookies).toEqual([]);

      const refused = await httpRequest(site.port, "/api/whatsapp/reports", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: report,
        from: "127.0.0.18",
      });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toEqual({ detail: expect.any(String) });
    });

    it("answers 401 everywhere when no secret is configured, and 413 to a body over the limit", async () => {
      const unconfigured = await httpRequest(tls.port, "/api/whatsapp/reports", {
        method: "POST",
        headers: { "content-type": "application/json", "x-webhook-secret": WEBHOOK_SECRET },
        body: report,
        from: "127.0.0.18",
      });
      expect(unconfigured.status).toBe(401);

      const big = await httpRequest(site.port, "/api/whatsapp/reports", {
        method: "POST",
        headers: { "content-type": "application/json", "x-webhook-secret": WEBHOOK_SECRET },
        body: JSON.stringify({ results: [], padding: "a".repeat(300 * 1024) }),
        from: "127.0.0.18",
      });
      expect(big.status).toBe(413);
    });

    it("guards the inbound webhook the same way: 401 without the secret, 413 over the limit", async () => {
      const inbound = JSON.stringify({ results: [], messageCount: 0, pendingMessageCount: 0 });
      const refused = await httpRequest(site.port, "/api/whatsapp/inbound", {
        method: "POST",
        headers: { "content-type": "application/json", "x-webhook-secret": "wrong" },
        body: inbound,
        from: "127.0.0.18",
      });
      expect(refused.status).toBe(401);
      const accepted = await httpRequest(site.port, "/api/whatsapp/inbound", {
        method: "POST",
        headers: { "content-type": "application/json", "x-webhook-secret": WEBHOOK_SECRET },
        body: inbound,
        from: "127.0.0.18",
      });
      expect(accepted.status).toBe(200);
      expect(JSON.parse(accepted.body)).toEqual({ received: 0, recorded: 0, leadsCreated: 0, skipped: 0 });
      const big = await httpRequest(site.port, "/api/whatsapp/inbound", {
        method: "POST",
        headers: { "content-type": "application/json", "x-webhook-secret": WEBHOOK_SECRET },
        body: JSON.stringify({ results: [], padding: "a".repeat(300 * 1024) }),
        from: "127.0.0.18",
      });
      expect(big.status).toBe(413);
    });

    it("issue 19: refuses a forged secret (401) and accepts the previous one during a rotation", async () => {
      for (const route of ["/api/whatsapp/reports", "/api/whatsapp/inbound"]) {
        const forged = await webhookPost(route, "forged-secret-0123456789abcdef", "127.0.0.18", report);
        expect(forged.status).toBe(401);
        expect(JSON.parse(forged.body)).toEqual({ detail: "Missing or wrong webhook secret" });
      }
      const rotated = await webhookPost(
        "/api/whatsapp/reports",
        PREVIOUS_WEBHOOK_SECRET,
        "127.0.0.18",
        report,
      );
      expect(rotated.status).toBe(200);
      const inbound = await webhookPost(
        "/api/whatsapp/inbound",
        PREVIOUS_WEBHOOK_SECRET,
        "127.0.0.18",
        inboundBody("56911110018"),
      );
      expect(inbound.status).toBe(200);
      expect(JSON.parse(inbound.body)).toMatchObject({ received: 1, recorded: 1 });
    });

    it("issue 19: refuses a client outside WHATSAPP_WEBHOOK_ALLOW_IPS even with the right secret (403)", async () => {
      for (const route of ["/api/whatsapp/reports", "/api/whatsapp/inbound"]) {
        const outside = await webhookPost(route, WEBHOOK_SECRET, "127.0.0.40", inboundBody("56911110040"));
        expect(outside.status).toBe(403);
        expect(JSON.parse(outside.body)).toEqual({ detail: "Address not allowed" });
      }
      // Forged forwarding headers do not make an outsider the provider (TRUST_PROXY is another machine).
      const forged = await httpRequest(site.port, "/api/whatsapp/reports", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-webhook-secret": WEBHOOK_SECRET,
          "x-forwarded-for": "127.0.0.18",
          "x-clinica-client-ip": "127.0.0.18",
        },
        body: report,
        from: "127.0.0.40",
      });
      expect(forged.status).toBe(403);
      // An address of the listed range is the provider.
      const inRange = await webhookPost("/api/whatsapp/reports", WEBHOOK_SECRET, "127.0.3.7", report);
      expect(inRange.status).toBe(200);
    });

    it("issue 19: answers 405 with Allow: POST to GET, HEAD and the other methods", async () => {
      for (const route of ["/api/whatsapp/reports", "/api/whatsapp/inbound"]) {
        for (const method of ["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE"]) {
          const answer = await httpRequest(site.port, route, { method, from: "127.0.0.18" });
          expect({ route, method, status: answer.status, allow: answer.headers.allow }).toEqual({
            route,
            method,
            status: 405,
            allow: "POST",
          });
        }
      }
    });
  });

  describe("a NUL character anywhere a client writes (issue 19)", () => {
    let mark = 0;
    beforeAll(() => {
      mark = site.output().length;
    });

    it("in a file id, a lead id or a query value: 400/404, never 500", async () => {
      const patient = await demoPatientCookie("127.0.0.41");
      const admin = await adminCookie();
      const attempts: Array<[string, string | undefined]> = [
        ["/paciente/ficha/archivo/%00", patient],
        ["/paciente/ficha/archivo/abc%00def", patient],
        ["/dentista/ficha/archivo/%00", admin],
        ["/funnel/leads.csv?q=%00", admin],
        ["/funnel/leads.csv?tab=leads&q=rojas%00", admin],
        ["/funnel?tab=leads&q=a%00b", admin],
        ["/funnel/leads/%00", admin],
        ["/admin/usuarios/%00", admin],
        ["/blog?q=%00", undefined],
      ];
      const answers: string[] = [];
      for (const [route, cookie] of attempts) {
        const headers: Record<string, string> = cookie ? { cookie } : {};
        const { status } = await httpRequest(site.port, route, { headers, from: "127.0.0.41" });
        answers.push(`${route}: ${status}`);
      }
      expect(answers.filter((answer) => !/: 40[04]$/.test(answer))).toEqual([]);
    });

    it("in a form field or a JSON body: 400 with a generic message", async () => {
      const lead = await httpForm(
        site.port,
        "/?index",
        {
          submissionId: randomUUID(),
          name: "Ana\u0000Pérez",
          phone: "+56 9 8765 0041",
          treatment: "ortodoncia",
          urgency: "3-meses",
          budget: "medio",
          message: "",
          consent: "on",
          source: "web",
        },
        { origin: siteOrigin(), from: "127.0.0.42" },
      );
      expect(lead.status).toBe(400);
      expect(lead.body).toContain("La solicitud no es válida");
      const guest = await httpRequest(site.port, "/api/chat/guest", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account_id: "clinica-chat", phone: "+56 9\u00001234 5678" }),
        from: "127.0.0.42",
      });
      expect(guest.status).toBe(400);
    });

    it("in one message of an inbound WhatsApp batch: the valid sibling is stored", async () => {
      const body = JSON.parse(inboundBody("56911110043")) as { results: Array<Record<string, unknown>> };
      const good = JSON.parse(inboundBody("56911110044")) as { results: Array<Record<string, unknown>> };
      body.results[0]!.message = { type: "TEXT", text: "Hola\u0000" };
      body.results.push(good.results[0]!);
      const answer = await webhookPost(
        "/api/whatsapp/inbound",
        WEBHOOK_SECRET,
        "127.0.0.18",
        JSON.stringify(body),
      );
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ received: 2, recorded: 1, leadsCreated: 1, skipped: 1 });
    });

    it("TRACE, a method a Fetch request cannot carry, is a 405, not a 500", async () => {
      const answer = await httpRequest(site.port, "/api/whatsapp/inbound", {
        method: "TRACE",
        from: "127.0.0.41",
      });
      expect(answer.status).toBe(405);
    });

    it("leaves no stack trace and no database error in the server's log", () => {
      const log = site.output().slice(mark);
      expect(log).not.toMatch(/\n\s+at |invalid byte sequence|Failed query/);
    });
  });
});
