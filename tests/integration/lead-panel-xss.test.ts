import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniquePhone } from "../setup/clients";
import { httpForm, httpRequest, projectRoot, startProdServer, type ProdServer } from "../setup/prod-server";

// A lead's name and message are typed by anyone on the internet and shown to staff in the funnel's lead panel.
// This reads the HTML the production server sends an asesor for /funnel, not a component rendered on its own:
// that page also carries the loader data serialised into an inline <script> for hydration, where React's text
// escaping does not apply, and it runs the whole path (public form → validation → database → loader DTO → SSR).

const SCRIPT = "<script>alert(1)</script>";
const IMG = "<img src=x onerror=alert(1)>";
const ASESOR = { email: "asesor@clinica.example", password: "clinica-demo-2026" };

let server: ProdServer;

/** A form post from the site itself. */
function post(pathname: string, fields: Record<string, string>) {
  return httpForm(server.port, pathname, fields, { origin: `http://127.0.0.1:${server.port}` });
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("lead panel rendering (production server)", () => {
  beforeAll(async () => {
    if (!existsSync(path.join(projectRoot, "build/server/index.js"))) {
      throw new Error("run `npx react-router build` first");
    }
    // Demo mode for its asesor account; the rendering does not depend on the database, so PGlite only.
    server = await startProdServer({ DATA_DIR: "memory://", SEED_DEMO: "1" });
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("escapes markup in a lead's name and message, in the HTML and in the hydration data", async () => {
    const marker = `Xss${Math.random().toString(36).slice(2, 10)}`;
    const stored = await post("/?index", {
      submissionId: randomUUID(),
      name: `${marker} ${SCRIPT}${IMG}`,
      phone: uniquePhone(),
      treatment: "implantes",
      urgency: "inmediato",
      budget: "alto",
      message: `Hola ${SCRIPT} y ${IMG} fin`,
      consent: "on",
    });
    expect(stored.status).toBe(200);

    const signIn = await post("/auth", { intent: "signin", ...ASESOR });
    const session = signIn.cookies.find((cookie) => cookie.startsWith("clinica.session_token="));
    expect({ status: signIn.status, session: Boolean(session) }).toEqual({ status: 302, session: true });

    const page = await httpRequest(server.port, `/funnel?tab=leads&q=${marker}`, {
      headers: { cookie: session!.split(";")[0]! },
    });
    expect(page.status).toBe(200);
    const html = page.body;
    // The lead is on the page (name and message), as text.
    expect(html).toContain(
      `${marker} &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;`,
    );
    expect(html).toContain(
      "Hola &lt;script&gt;alert(1)&lt;/script&gt; y &lt;img src=x onerror=alert(1)&gt; fin",
    );
    // Nowhere as markup: neither in the rendered HTML nor in the serialised loader data.
    expect(html).not.toContain(SCRIPT);
    expect(html).not.toContain(IMG);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    // Every script element on the page is the app's own (it carries the CSP nonce).
    const scripts = html.match(/<script\b[^>]*>/gi) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((tag) => !/\bnonce="[^"]+"/.test(tag))).toEqual([]);
  });
});
