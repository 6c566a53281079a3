// A real, local OpenID Connect provider (oidc-provider) that stands in for Google in tests.
// Plain ESM JavaScript so that `node tests/setup/run-fake-oidc.mjs` runs it without any TypeScript
// tooling; the typed API lives in oidc-fake.d.mts. Tests, `npm run dev` and demo mode (mounted at
// /google-demo by server.mjs, with one-click demo identities) use it.
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import Provider, { interactionPolicy } from "oidc-provider";

const SCOPE_CLAIMS = {
  openid: ["sub"],
  email: ["email", "email_verified"],
  profile: ["name", "given_name", "family_name"],
};

/** @param {string} email */
export function accountIdFor(email) {
  const normalized = email.trim().toLowerCase();
  return `acct-${createHash("sha256").update(normalized).digest("hex").slice(0, 16)}`;
}

/** @param {unknown} value */
function escapeHtml(value) {
  return String(value ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/**
 * Minimal per-instance storage adapter (oidc-provider's built-in one is process-global and logs a
 * "development-only" warning on every start).
 */
function createMemoryAdapterFactory() {
  /** @type {Map<string, { payload: Record<string, unknown>; expiresAt: number }>} */
  const store = new Map();

  /** @param {string} key */
  const read = (key) => {
    const entry = store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry.payload;
  };

  /** @param {string} model */
  return (model) => {
    /** @param {string} id */
    const key = (id) => `${model}:${id}`;
    return {
      /** @param {string} id @param {Record<string, unknown>} payload @param {number} [expiresIn] */
      async upsert(id, payload, expiresIn) {
        const expiresAt = typeof expiresIn === "number" ? Date.now() + expiresIn * 1000 : Infinity;
        store.set(key(id), { payload, expiresAt });
      },
      /** @param {string} id */
      async find(id) {
        return read(key(id));
      },
      /** @param {string} uid */
      async findByUid(uid) {
        for (const [k] of store) {
          if (!k.startsWith(`${model}:`)) continue;
          const payload = read(k);
          if (payload?.uid === uid) return payload;
        }
        return undefined;
      },
      /** @param {string} userCode */
      async findByUserCode(userCode) {
        for (const [k] of store) {
          if (!k.startsWith(`${model}:`)) continue;
          const payload = read(k);
          if (payload?.userCode === userCode) return payload;
        }
        return undefined;
      },
      /** @param {string} id */
      async consume(id) {
        const payload = read(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      /** @param {string} id */
      async destroy(id) {
        store.delete(key(id));
      },
      /** @param {string} grantId */
      async revokeByGrantId(grantId) {
        for (const [k, entry] of store) {
          if (entry.payload.grantId === grantId) store.delete(k);
        }
      },
    };
  };
}

/**
 * @param {import("node:http").IncomingMessage} req
 * @returns {Promise<URLSearchParams>}
 */
async function readForm(req) {
  /** @type {Buffer[]} */
  const chunks = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/**
 * @typedef {{ label: string; email: string; given_name: string; family_name: string }} DemoIdentity
 * @param {{ uid: string; clientId: string; email: string; error?: string; basePath: string; identities: DemoIdentity[] }} view
 */
function loginPage(view) {
  const error = view.error ? `<p role="alert" style="color:#b00020">${escapeHtml(view.error)}</p>` : "";
  const action = `${view.basePath}/interaction/${escapeHtml(view.uid)}`;
  const demo = view.identities.length > 0;
  const heading = demo ? "Google (demostración)" : "Iniciar sesión";
  const intro = demo
    ? `<p>Este proveedor de demostración reemplaza a Google: nada sale de este equipo y no se usa ninguna cuenta real. Elige con quién entrar a <strong>${escapeHtml(view.clientId)}</strong>.</p>`
    : `<p>Proveedor OpenID Connect de prueba para <strong>${escapeHtml(view.clientId)}</strong>.</p>`;
  const choices = demo
    ? `<form method="post" action="${action}" aria-labelledby="identidades">
<h2 id="identidades">Identidades de demostración</h2>
<ul class="ids">${view.identities
        .map(
          (identity, index) =>
            `<li><button type="submit" name="identity" value="${index}">${escapeHtml(identity.label)}<span>${escapeHtml(identity.email)}</span></button></li>`,
        )
        .join("")}</ul>
<input type="hidden" name="action" value="identity">
</form>
<h2>Otra cuenta</h2>`
    : "";
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${heading} · Proveedor OpenID de ${demo ? "demostración" : "prueba"}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1e293b}label{display:block;margin-top:1rem}input[type=email],input[type=text]{width:100%;padding:.4rem;box-sizing:border-box}.check{display:flex;gap:.5rem;align-items:center}.actions{margin-top:1.5rem;display:flex;gap:1rem}.ids{list-style:none;padding:0;display:grid;gap:.5rem}.ids button{width:100%;text-align:left;padding:.6rem .8rem;border:1px solid #94a3b8;border-radius:.5rem;background:#fff;font:inherit;cursor:pointer}.ids button span{display:block;font-size:.875rem;color:#475569}h2{font-size:1.1rem;margin-top:1.5rem}</style>
</head>
<body>
<main>
<h1>${heading}</h1>
${intro}
${error}
${choices}
<form method="post" action="${action}">
<label for="email">Correo</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(view.email)}">
<label for="given_name">Nombre</label>
<input id="given_name" name="given_name" type="text" autocomplete="given-name">
<label for="family_name">Apellido</label>
<input id="family_name" name="family_name" type="text" autocomplete="family-name">
<div class="check"><input id="email_verified" name="email_verified" type="checkbox" checked><label for="email_verified" style="margin:0">Correo verificado</label></div>
<div class="actions">
<button type="submit" name="action" value="login">Continuar</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancelar</button>
</div>
</form>
</main>
</body>
</html>`;
}

/**
 * @param {{ port: number; clientId: string; clientSecret: string; redirectUris: string[] }} options
 * @returns {Promise<import("./oidc-fake.d.mts").FakeOidc>}
 */
export async function startFakeOidc(options) {
  /** @type {((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void) | undefined} */
  let handler;
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else {
      res.statusCode = 503;
      res.end("starting");
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve(undefined);
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const issuer = `http://127.0.0.1:${port}`;
  handler = createFakeOidcHandler({ ...options, issuer });
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    async close() {
      await new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The provider as a Node request handler, for a server of its own (startFakeOidc) or mounted under the issuer's path
 * in another server (demo mode's "Google (demostración)" in server.mjs, which strips that path from req.url as
 * Express's app.use does). With `identities`, the sign-in page offers them as one-click choices.
 * @param {import("./oidc-fake.d.mts").FakeOidcHandlerOptions} options
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void}
 */
export function createFakeOidcHandler(options) {
  const issuer = options.issuer.replace(/\/+$/, "");
  const basePath = new URL(issuer).pathname.replace(/\/+$/, "");
  const identities = options.identities ?? [];
  /** @type {Map<string, { email: string; email_verified: boolean; given_name: string; family_name: string; name: string }>} */
  const accounts = new Map();

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey = {
    ...privateKey.export({ format: "jwk" }),
    kid: "fake-oidc-rs256",
    use: "sig",
    alg: "RS256",
  };

  // Like Google, accept prompt=select_account (oidc-provider rejects unknown prompt values otherwise).
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: "select_account", requestable: true }), 0);

  const provider = new Provider(issuer, {
    adapter: createMemoryAdapterFactory(),
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ["code"],
        grant_types: ["authorization_code"],
        // client_secret_post is accepted too: oidc-provider treats basic/post as interchangeable.
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: SCOPE_CLAIMS,
    scopes: ["openid", "email", "profile"],
    responseTypes: ["code"],
    // Put the scope claims (email, names…) in the ID token, as Google does. By default
    // oidc-provider only puts them in userinfo when an access token is also issued.
    conformIdTokenClaims: false,
    // PKCE (S256) is honoured when sent, never demanded.
    pkce: { required: () => false },
    // Plain numbers (seconds) instead of the default ttl functions, which log a NOTICE each.
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 600,
      Grant: 14 * 24 * 3600,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${basePath}/interaction/${interaction.uid}`,
    },
    // Auto-consent: every requested OIDC scope/claim is granted, so there is never a consent screen.
    async loadExistingGrant(ctx) {
      const { oidc } = ctx;
      const accountId = oidc.account.accountId;
      const clientId = oidc.client.clientId;
      const grantId = oidc.result?.consent?.grantId || oidc.session.grantIdFor(clientId);
      let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) {
        grant = new oidc.provider.Grant({ accountId, clientId });
      }
      grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(" "));
      const claims = [...oidc.requestParamClaims];
      if (claims.length) grant.addOIDCClaims(claims);
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { sub, ...account };
        },
      };
    },
    async renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Error</title></head><body><main><h1>Error</h1><p role="alert">${escapeHtml(out.error)}: ${escapeHtml(out.error_description)}</p></main></body></html>`;
    },
  });

  const providerCallback = provider.callback();

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {string} uid
   */
  async function handleInteraction(req, res, uid) {
    /** @type {Awaited<ReturnType<typeof provider.interactionDetails>>} */
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      res.statusCode = 400;
      res.setHeader("content-type", "text/plain; charset=utf-8");
      res.end("Interacción desconocida o expirada.");
      return;
    }
    if (details.uid !== uid) {
      res.statusCode = 400;
      res.setHeader("content-type", "text/plain; charset=utf-8");
      res.end("La interacción no coincide.");
      return;
    }
    const clientId = String(details.params.client_id ?? "");

    // Only reachable with an explicit prompt=consent: approve whatever is missing.
    if (details.prompt.name === "consent") {
      const missing = details.prompt.details;
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session?.accountId, clientId });
      if (!grant) throw new Error("grant not found");
      if (Array.isArray(missing.missingOIDCScope)) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (Array.isArray(missing.missingOIDCClaims)) grant.addOIDCClaims(missing.missingOIDCClaims);
      if (missing.missingResourceScopes && typeof missing.missingResourceScopes === "object") {
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes)) {
          grant.addResourceScope(indicator, scopes.join(" "));
        }
      }
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
      return;
    }

    if (req.method === "GET") {
      res.statusCode = 200;
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.setHeader("cache-control", "no-store");
      res.end(
        loginPage({ uid, clientId, email: String(details.params.login_hint ?? ""), basePath, identities }),
      );
      return;
    }
    if (req.method !== "POST") {
      res.statusCode = 405;
      res.end();
      return;
    }

    const form = await readForm(req);
    if (form.get("action") === "cancel") {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "End-User aborted interaction" },
        { mergeWithLastSubmission: false },
      );
      return;
    }

    // A demo identity chosen with one click: its e-mail is verified, as Google's are.
    const chosen = form.get("action") === "identity" ? identities[Number(form.get("identity"))] : undefined;
    if (chosen) {
      const accountId = accountIdFor(chosen.email);
      accounts.set(accountId, {
        email: chosen.email.toLowerCase(),
        email_verified: true,
        given_name: chosen.given_name,
        family_name: chosen.family_name,
        name: `${chosen.given_name} ${chosen.family_name}`.trim(),
      });
      await provider.interactionFinished(
        req,
        res,
        { select_account: {}, login: { accountId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }

    const email = (form.get("email") ?? "").trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
      res.statusCode = 400;
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.end(loginPage({ uid, clientId, email, error: "Ingresa un correo válido.", basePath, identities }));
      return;
    }
    const givenName = (form.get("given_name") ?? "").trim();
    const familyName = (form.get("family_name") ?? "").trim();
    const accountId = accountIdFor(email);
    accounts.set(accountId, {
      email: email.toLowerCase(),
      email_verified: form.has("email_verified"),
      given_name: givenName,
      family_name: familyName,
      name: `${givenName} ${familyName}`.trim() || email,
    });
    await provider.interactionFinished(
      req,
      res,
      { select_account: {}, login: { accountId } },
      { mergeWithLastSubmission: false },
    );
  }

  return (req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://fake.invalid");
    const match = /^\/interaction\/([^/]+)\/?$/.exec(pathname);
    if (!match?.[1]) {
      providerCallback(req, res);
      return;
    }
    handleInteraction(req, res, decodeURIComponent(match[1])).catch((error) => {
      console.error("fake-oidc interaction failed", error);
      if (!res.headersSent) res.statusCode = 500;
      res.end("Error interno del proveedor de prueba.");
    });
  };
}

/** Starts the provider from FAKE_OIDC_* environment variables (see run-fake-oidc.mjs). */
export async function startFakeOidcFromEnv() {
  const env = process.env;
  const redirectUris = (
    env.FAKE_OIDC_REDIRECT_URIS ||
    "http://localhost:3000/api/auth/callback/google,http://localhost:3210/api/auth/callback/google"
  )
    .split(",")
    .map((uri) => uri.trim())
    .filter(Boolean);
  return startFakeOidc({
    port: Number(env.FAKE_OIDC_PORT || 3290),
    clientId: env.FAKE_OIDC_CLIENT_ID || "clinica-test",
    clientSecret: env.FAKE_OIDC_CLIENT_SECRET || "clinica-test-secret",
    redirectUris,
  });
}
