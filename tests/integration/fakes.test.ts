import { createHash, createPublicKey, randomBytes, verify, type JsonWebKey } from "node:crypto";
import { createTransport } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "../setup/cookie-jar";
import { accountIdFor, startFakeOidc, type FakeOidc } from "~/integrations/google/oidc-fake.mjs";
import { startFakeSmtp, type FakeSmtp } from "../setup/fake-smtp";

describe("fake SMTP server", () => {
  let smtp: FakeSmtp;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it("receives a multipart mail from nodemailer and decodes subject, text and html", async () => {
    const token = randomBytes(225).toString("base64url"); // 300 chars
    expect(token).toHaveLength(300);
    const link = `http://localhost:3000/api/auth/verify-email?token=${token}&callbackURL=%2Fpaciente`;
    const subject = "Confirma tu correo · Río Clínica";

    const transport = createTransport({ url: smtp.url });
    await transport.sendMail({
      from: '"Río Clínica" <no-reply@rioclinica.test>',
      to: "Ana.Perez@Example.com",
      subject,
      text: `Hola Ana, confirma tu dirección de correo electrónico aquí:\n${link}\n\nSi no fuiste tú, ignora este mensaje. Atención: sesión única.`,
      html: `<p>Hola Ana, confirma tu dirección de correo electrónico:</p><p><a href="${link}">Confirmar correo</a></p><p>Atención: sesión única.</p>`,
    });
    transport.close();

    expect(smtp.url).toBe(`smtp://127.0.0.1:${smtp.port}`);
    const mail = await smtp.waitForMail("ana.perez@example.com");
    expect(mail.subject).toBe(subject);
    expect(mail.from).toBe("no-reply@rioclinica.test");
    expect(mail.to.map((address) => address.toLowerCase())).toEqual(["ana.perez@example.com"]);
    expect(mail.text).toContain(link);
    expect(mail.text).toContain("dirección de correo electrónico");
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain("Atención: sesión única.");
    // The decoder was really exercised: encoded-word subject, quoted-printable with soft breaks.
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/im);
    expect(mail.raw).toMatch(/Content-Transfer-Encoding: quoted-printable/i);
    expect(mail.raw).toContain("=\r\n");
    expect(smtp.messages).toContain(mail);
  });

  it("waitForMail also resolves with mail that arrives later", async () => {
    const pending = smtp.waitForMail("later@example.com", 5000);
    const transport = createTransport({ url: smtp.url });
    await transport.sendMail({
      from: "no-reply@rioclinica.test",
      to: "later@example.com",
      subject: "Plain ASCII",
      text: "hello",
    });
    transport.close();
    const mail = await pending;
    expect(mail.subject).toBe("Plain ASCII");
    expect(mail.text.trim()).toBe("hello");
    expect(mail.html).toBe("");
  });

  it("decodes base64 bodies", async () => {
    const transport = createTransport({ url: smtp.url });
    await transport.sendMail({
      from: "no-reply@rioclinica.test",
      to: "base64@example.com",
      subject: "Reserva confirmada — mañana",
      text: "Tu hora está confirmada para mañana.",
      html: "<p>Tu hora está confirmada para <b>mañana</b>.</p>",
      textEncoding: "base64",
    });
    transport.close();
    const mail = await smtp.waitForMail("BASE64@example.com");
    expect(mail.raw).toMatch(/Content-Transfer-Encoding: base64/i);
    expect(mail.subject).toBe("Reserva confirmada — mañana");
    expect(mail.text).toBe("Tu hora está confirmada para mañana.");
    expect(mail.html).toBe("<p>Tu hora está confirmada para <b>mañana</b>.</p>");
  });

  it("waitForMail rejects for an address that never gets mail", async () => {
    await expect(smtp.waitForMail("nobody@example.com", 300)).rejects.toThrow(
      /no mail to nobody@example.com within 300 ms/,
    );
  });
});

async function request(jar: CookieJar, url: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  const cookie = jar.header();
  if (cookie) headers.set("cookie", cookie);
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  jar.store(response);
  return response;
}

/** Follows redirects (GET) until one points at `stopAt`; returns that final Location. */
async function followUntil(jar: CookieJar, response: Response, stopAt: string): Promise<URL> {
  let current = response;
  for (let hops = 0; hops < 10; hops++) {
    const location = current.headers.get("location");
    if (current.status < 300 || current.status >= 400 || !location) {
      throw new Error(`expected a redirect, got ${current.status}: ${await current.text()}`);
    }
    const next = new URL(location, current.url);
    if (next.href.startsWith(stopAt)) return next;
    current = await request(jar, next.href);
  }
  throw new Error("too many redirects");
}

function base64url(data: Buffer) {
  return data.toString("base64url");
}

function decodeJwt(jwt: string) {
  const [header = "", payload = "", signature = ""] = jwt.split(".");
  return {
    header: JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { alg: string; kid?: string },
    payload: JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>,
    signingInput: `${header}.${payload}`,
    signature: Buffer.from(signature, "base64url"),
  };
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
  code_challenge_methods_supported: string[];
}

describe("fake OIDC provider", () => {
  const clientId = "clinica-test";
  const clientSecret = "clinica-test-secret";
  const redirectUri = "http://localhost:4999/cb";
  let oidc: FakeOidc;
  let discovery: Discovery;

  beforeAll(async () => {
    oidc = await startFakeOidc({ port: 0, clientId, clientSecret, redirectUris: [redirectUri] });
    discovery = (await (await fetch(oidc.discoveryUrl)).json()) as Discovery;
  });
  afterAll(async () => {
    await oidc?.close();
  });

  function authorizeUrl(params: Record<string, string>) {
    const url = new URL(discovery.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid email profile",
      ...params,
    }).toString();
    return url.href;
  }

  /** GET /auth → the interaction page; returns its URL and HTML. */
  async function openLoginPage(jar: CookieJar, params: Record<string, string>) {
    const start = await request(jar, authorizeUrl(params));
    const interactionUrl = await followUntil(jar, start, `${oidc.issuer}/interaction/`);
    const page = await request(jar, interactionUrl.href);
    expect(page.status).toBe(200);
    return { url: interactionUrl, html: await page.text() };
  }

  it("serves discovery on 127.0.0.1", async () => {
    expect(oidc.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(oidc.discoveryUrl).toBe(`${oidc.issuer}/.well-known/openid-configuration`);
    const response = await fetch(oidc.discoveryUrl);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(discovery);
    expect(discovery.issuer).toBe(oidc.issuer);
    expect(discovery.authorization_endpoint).toBe(`${oidc.issuer}/auth`);
    expect(discovery.token_endpoint).toBe(`${oidc.issuer}/token`);
    expect(discovery.userinfo_endpoint).toBe(`${oidc.issuer}/me`);
    expect(discovery.jwks_uri).toBe(`${oidc.issuer}/jwks`);
    expect(discovery.code_challenge_methods_supported).toContain("S256");
  });

  it("runs a full authorization-code flow with PKCE and client_secret_basic", async () => {
    const jar = new CookieJar();
    const state = base64url(randomBytes(16));
    const nonce = base64url(randomBytes(16));
    const codeVerifier = base64url(randomBytes(32));
    const codeChallenge = base64url(createHash("sha256").update(codeVerifier).digest());

    const login = await openLoginPage(jar, {
      state,
      nonce,
      code_challenge: codeChallenge,
      code_challenge_method: "S256",
    });
    expect(login.html).toContain('<html lang="es">');
    for (const label of ["Correo", "Nombre", "Apellido", "Correo verificado", "Continuar", "Cancelar"]) {
      expect(login.html).toContain(`>${label}<`);
    }
    expect(login.html).toMatch(/name="email_verified" type="checkbox" checked/);

    const submit = await request(jar, login.url.href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        email: "ana@example.com",
        given_name: "Ana",
        family_name: "Pérez",
        email_verified: "on",
      }),
    });
    const callback = await followUntil(jar, submit, redirectUri);
    expect(callback.searchParams.get("state")).toBe(state);
    expect(callback.searchParams.get("iss")).toBe(oidc.issuer);
    const code = callback.searchParams.get("code");
    expect(code).toBeTruthy();

    const tokenResponse = await fetch(discovery.token_endpoint, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: code ?? "",
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),
    });
    const tokens = (await tokenResponse.json()) as Record<string, string>;
    expect(tokens.error_description ?? tokens.error).toBeUndefined();
    expect(tokenResponse.status).toBe(200);
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.access_token).toBeTruthy();

    const idToken = decodeJwt(tokens.id_token ?? "");
    const sub = accountIdFor("ana@example.com");
    expect(sub).toMatch(/^acct-[0-9a-f]{16}$/);
    expect(idToken.payload).toMatchObject({
      iss: oidc.issuer,
      aud: clientId,
      sub,
      email: "ana@example.com",
      email_verified: true,
      given_name: "Ana",
      family_name: "Pérez",
      name: "Ana Pérez",
      nonce,
    });

    // The signature checks out against the published JWKS.
    const jwks = (await (await fetch(discovery.jwks_uri)).json()) as {
      keys: (JsonWebKey & { kid?: string })[];
    };
    const jwk = jwks.keys.find((key) => key.kid === idToken.header.kid);
    expect(idToken.header.alg).toBe("RS256");
    expect(jwk).toBeDefined();
    const valid = verify(
      "sha256",
      Buffer.from(idToken.signingInput),
      createPublicKey({ key: jwk as JsonWebKey, format: "jwk" }),
      idToken.signature,
    );
    expect(valid).toBe(true);

    const userinfo = await fetch(discovery.userinfo_endpoint, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toEqual({
      sub,
      email: "ana@example.com",
      email_verified: true,
      name: "Ana Pérez",
      given_name: "Ana",
      family_name: "Pérez",
    });

    // Same browser session, no PKCE, client_secret_post: straight back with a code (no login, no consent).
    const again = await request(jar, authorizeUrl({ state: "second" }));
    const secondCallback = await followUntil(jar, again, redirectUri);
    expect(secondCallback.searchParams.get("state")).toBe("second");
    const secondToken = await fetch(discovery.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: secondCallback.searchParams.get("code") ?? "",
        redirect_uri: redirectUri,
        client_id: clientId,
        client_secret: clientSecret,
      }),
    });
    expect(secondToken.status).toBe(200);
    expect(decodeJwt(((await secondToken.json()) as { id_token: string }).id_token).payload.sub).toBe(sub);
  });

  it("accepts prompt=select_account (as Google does) and an unverified e-mail", async () => {
    const jar = new CookieJar();
    const login = await openLoginPage(jar, { state: "s", nonce: "n", prompt: "select_account" });
    const submit = await request(jar, login.url.href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "luis@example.com", given_name: "Luis", family_name: "Soto" }),
    });
    const callback = await followUntil(jar, submit, redirectUri);
    const tokenResponse = await fetch(discovery.token_endpoint, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: callback.searchParams.get("code") ?? "",
        redirect_uri: redirectUri,
      }),
    });
    expect(tokenResponse.status).toBe(200);
    const { id_token } = (await tokenResponse.json()) as { id_token: string };
    expect(decodeJwt(id_token).payload).toMatchObject({
      sub: accountIdFor("luis@example.com"),
      email: "luis@example.com",
      email_verified: false,
    });
  });

  it("auto-approves prompt=consent with access_type=offline (what the app's genericOAuth sends)", async () => {
    const jar = new CookieJar();
    const login = await openLoginPage(jar, {
      state: "c",
      nonce: "n",
      prompt: "consent",
      access_type: "offline",
    });
    const submit = await request(jar, login.url.href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "ana@example.com", email_verified: "on" }),
    });
    // login → consent interaction (answered without a page) → callback
    const callback = await followUntil(jar, submit, redirectUri);
    expect(callback.searchParams.get("error")).toBeNull();
    expect(callback.searchParams.get("code")).toBeTruthy();
    expect(callback.searchParams.get("state")).toBe("c");

    // A returning user with a live session still gets a consent round-trip, again without a page.
    const again = await request(jar, authorizeUrl({ state: "c2", prompt: "consent" }));
    const secondCallback = await followUntil(jar, again, redirectUri);
    expect(secondCallback.searchParams.get("code")).toBeTruthy();
  });

  it("'Cancelar' sends the user back with error=access_denied", async () => {
    const jar = new CookieJar();
    const login = await openLoginPage(jar, { state: "cancel-state", nonce: "n" });
    const submit = await request(jar, login.url.href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "", action: "cancel" }),
    });
    const callback = await followUntil(jar, submit, redirectUri);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe("cancel-state");
    expect(callback.searchParams.get("code")).toBeNull();
  });
});
