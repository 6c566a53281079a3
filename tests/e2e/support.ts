import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";

/**
 * In the page: the elements React rendered that do not carry React's props yet (see `waitForHydration`), described
 * (tag, id, test id, classes; at most five), so that a page that never hydrates says where.
 */
const notHydrated = () => {
  // This function runs in the page, so its helpers must live inside it.
  // oxlint-disable-next-line unicorn/consistent-function-scoping
  const propsOf = (element: Element) => {
    const key = Object.keys(element).find((name) => name.startsWith("__reactProps$"));
    return key
      ? ((element as unknown as Record<string, unknown>)[key] as Record<string, unknown>)
      : undefined;
  };
  const hydrated = (element: Element) => {
    if (element.tagName === "SCRIPT" || propsOf(element)) return true;
    for (
      let parent = element.parentElement;
      parent && parent !== document.body;
      parent = parent.parentElement
    ) {
      const props = propsOf(parent);
      if (props) return "dangerouslySetInnerHTML" in props;
    }
    return false;
  };
  const elements = [...document.body.querySelectorAll("*")];
  if (elements.length === 0) return ["(empty body)"];
  return elements
    .filter((element) => !hydrated(element))
    .slice(0, 5)
    .map((element) => {
      const testId = element.getAttribute("data-testid");
      const classes = element.getAttribute("class")?.split(" ").slice(0, 3).join(".");
      return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${testId ? `[data-testid=${testId}]` : ""}${classes ? `.${classes}` : ""}`;
    });
};

/** In the page: scrolls through the document half a screen at a time, then back to the top. */
async function scrollThrough() {
  // This function runs in the page, so its helpers must live inside it.
  // oxlint-disable-next-line unicorn/consistent-function-scoping
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  for (let top = 0; top < document.documentElement.scrollHeight; top += window.innerHeight / 2) {
    window.scrollTo({ top, behavior: "instant" });
    await frame();
  }
  window.scrollTo({ top: 0, behavior: "instant" });
}

/**
 * Resolves once React has hydrated the whole server-rendered document: every element React rendered carries
 * React's props. Not rendered by React: the streaming <script>s and the inside of `dangerouslySetInnerHTML`
 * (articles, legal texts). Interacting earlier clicks on dead HTML, which makes assertions on client behaviour
 * meaningless.
 * A part marked `data-hydrate="when-near"` hydrates only when it comes near the viewport (the landing's lead form,
 * ADR 022): on such a page this scrolls through it, again until the app has started and everything is hydrated,
 * and leaves it scrolled to the top.
 */
export async function waitForHydration(page: Page) {
  if ((await page.locator('[data-hydrate="when-near"]').count()) === 0) {
    await expect
      .poll(() => page.evaluate(notHydrated), {
        message: "elements not hydrated",
        timeout: 30_000,
        intervals: [50, 100, 250],
      })
      .toEqual([]);
    return;
  }
  await expect(async () => {
    if ((await page.evaluate(notHydrated)).length === 0) return;
    await page.evaluate(scrollThrough);
    // On failure, the message names the elements still without React (ADR 022's deferred part, or any other).
    expect(await page.evaluate(notHydrated), "elements not hydrated").toEqual([]);
  }).toPass({ timeout: 30_000 });
}

/**
 * Holds back the app's scripts (`/assets/….js`) until `release()` is called: the page shows its server HTML and a
 * person can type into it before it hydrates, as on a slow phone — with no timing the test does not control.
 */
export async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js(\?.*)?$/, async (route) => {
    await released;
    await route.continue();
  });
  return async () => {
    release();
    await waitForHydration(page);
  };
}

/** Opens a path and waits for hydration. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page);
  return response;
}

/** The landing page, hydrated. */
export async function openLanding(page: Page, path = "/") {
  return openPage(page, path);
}

// ---------------------------------------------------------------------------------------------------------------
// Accounts (tests/e2e/auth*.e2e.ts)
// ---------------------------------------------------------------------------------------------------------------

/** The demo accounts' password (demo seed). */
export const DEMO_PASSWORD = "clinica-demo-2026";

/** Demo accounts (demo seed) used by several files. */
export const DEMO_PATIENT = "paciente@clinica.example";
export const DEMO_ADMIN = "admin@clinica.example";

/** The axe rule tags of the accessibility checks: WCAG 2.1 A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** Serious and critical axe violations, as ids plus a readable report for the failure message. */
export async function blockingViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const blocking = results.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  const report = blocking
    .map(
      (violation) =>
        `[${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n` +
        violation.nodes
          .slice(0, 10)
          .map(
            (node) =>
              `    ${node.target.join(" ")}\n      ${node.failureSummary?.replace(/\n/g, "\n      ")}`,
          )
          .join("\n"),
    )
    .join("\n\n");
  return { ids: blocking.map((violation) => violation.id), report };
}

/** A password that meets the rule (8+ characters, letters and numbers). */
export const TEST_PASSWORD = "clinica2026";

/** An e-mail address no other test uses. */
export function uniqueEmail(prefix = "e2e") {
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${Date.now().toString(36)}-${random}@correo.example`;
}

/**
 * Makes this browser context look like its own client: the app rate-limits sign-ups and sign-ins per client IP,
 * and the production server trusts X-Forwarded-For from loopback proxies (TRUST_PROXY=loopback). Without this,
 * every test would share 127.0.0.1's budget (5 sign-ups per hour) and depend on the others.
 */
export async function useOwnClientIp(context: BrowserContext) {
  await context.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
}

export interface NewAccount {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  phone?: string;
}

/** A fresh patient's details (unique e-mail). */
export function newAccount(prefix = "e2e"): NewAccount {
  return { firstName: "Valentina", lastName: "Rojas", email: uniqueEmail(prefix), password: TEST_PASSWORD };
}

/** Fills the sign-up form of an open, hydrated /auth?modo=registro page (Spanish). Does not submit. */
export async function fillSignUpForm(page: Page, account: NewAccount) {
  await page.getByLabel("Nombre", { exact: true }).fill(account.firstName);
  await page.getByLabel("Apellido", { exact: true }).fill(account.lastName);
  await page.getByLabel("Correo electrónico").fill(account.email);
  await page.getByLabel("Contraseña", { exact: true }).fill(account.password);
  if (account.phone) await page.getByLabel("Teléfono (opcional)").fill(account.phone);
}

/** Fills and submits the sign-in form of an open, hydrated /auth page (Spanish). */
export async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Continuar", exact: true }).click();
}

/** Opens /auth, signs in and waits until the browser has left /auth. */
export async function signInThroughScreen(page: Page, email: string, password: string) {
  await openPage(page, "/auth");
  await submitSignIn(page, email, password);
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
}

/**
 * Signs the page's browser context in with a plain form POST to /auth (the screen's no-JavaScript path, as the
 * browser sends it without JavaScript), from its own client IP, and returns the path the sign-in leads to (the
 * role's landing page). The page stays where it was: the test opens the page it is about. For tests that are not
 * about signing in — tests/e2e/auth*.e2e.ts walk the screen itself (signInThroughScreen) — it saves loading and
 * hydrating /auth and the landing page, seconds per test on a busy machine.
 */
export async function signInByRequest(page: Page, email: string, password: string) {
  const response = await page.context().request.post("/auth", {
    form: { intent: "signin", email, password },
    headers: { "x-forwarded-for": randomClientIp() },
    maxRedirects: 0,
  });
  expect(response.status(), `the sign-in of ${email} should redirect`).toBe(302);
  const landing = response.headers().location;
  expect(landing, `the sign-in of ${email} should leave /auth`).toMatch(/^\/(?!auth)/);
  return landing!;
}

/** 'Salir' in the header; resolves on the landing page. */
export async function signOutFromHeader(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Salir" }).click();
  await page.waitForURL((url) => url.pathname === "/");
}

/**
 * The text of the newest demo e-mail (/dev/correos, newest first) to `to` whose text matches `about`, and the
 * first link in it. /dev/correos is for a signed-in admin only (demo mode), so it is read in a separate browser
 * context signed in as the demo admin; `page` keeps its own session. Polls: the outbox writes the mail right after
 * the request.
 */
export async function newestMail(page: Page, to: string, about: RegExp) {
  const browser = page.context().browser();
  if (!browser) throw new Error("newestMail needs a page of a launched browser");
  const admin = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const signIn = await admin.request.post("/auth", {
      form: { intent: "signin", email: DEMO_ADMIN, password: DEMO_PASSWORD },
      headers: { "x-forwarded-for": randomClientIp() },
      maxRedirects: 0,
    });
    expect(signIn.status(), "the demo admin signs in to read /dev/correos").toBe(302);
    const mailbox = await admin.newPage();
    let text = "";
    await expect(async () => {
      await mailbox.goto("/dev/correos");
      const mails = mailbox.getByTestId("dev-mail").filter({ hasText: to }).filter({ hasText: about });
      text = await mails.first().innerText({ timeout: 1_000 });
    }, `an e-mail to ${to} matching ${about} in /dev/correos`).toPass({ timeout: 10_000 });
    const link = /https?:\/\/\S+/.exec(text)?.[0];
    return { text, link };
  } finally {
    await admin.close();
  }
}

const randomOctet = () => 1 + Math.floor(Math.random() * 254);

/** A random private address for X-Forwarded-For (see useOwnClientIp). */
export function randomClientIp() {
  return `10.${randomOctet()}.${randomOctet()}.${randomOctet()}`;
}

/**
 * Creates a patient account with a plain form POST to /auth (the screen's no-JavaScript path), from its own client
 * IP. With `context.request` the browser context is signed in as that account afterwards; with the `request`
 * fixture the browser stays signed out.
 */
export async function createAccount(request: APIRequestContext, account: NewAccount = newAccount()) {
  const response = await request.post("/auth?modo=registro", {
    form: {
      intent: "signup",
      firstName: account.firstName,
      lastName: account.lastName,
      email: account.email,
      password: account.password,
      ...(account.phone ? { phone: account.phone } : {}),
    },
    headers: { "x-forwarded-for": randomClientIp() },
    maxRedirects: 0,
  });
  expect(response.status(), `sign-up of ${account.email} should redirect`).toBe(302);
  expect(response.headers().location).toBe("/paciente");
  return account;
}

/**
 * A `test` with one admin session per worker that reads /dev/correos (booking needs a confirmed e-mail, whose link
 * only an admin can read there; sign-ins are rate-limited per account, so one per test would not last).
 */
export const testWithMailReader = test.extend<object, { mailReader: Page }>({
  mailReader: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      await useOwnClientIp(context);
      const page = await context.newPage();
      await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
      await use(page);
      await context.close();
    },
    { scope: "worker" },
  ],
});

/** Letters only (the lead form's name rule), unique per call: leads named with it match no other run's or file's. */
export function leadNameMarker() {
  return `Zq${randomUUID()
    .replace(/[^a-f]/g, "")
    .slice(0, 6)}`;
}

/** Leads sent as the landing form sends them without JavaScript; ten per client address (the hourly limit). */
export async function createLeads(request: APIRequestContext, name: string, count: number, source = "web") {
  let ip = randomClientIp();
  for (let index = 0; index < count; index++) {
    if (index % 10 === 0) ip = randomClientIp();
    const response = await request.post("/?index", {
      headers: { "x-forwarded-for": ip },
      form: {
        submissionId: randomUUID(),
        name,
        phone: `+569${10_000_000 + Math.floor(Math.random() * 89_999_999)}`,
        treatment: "evaluacion",
        urgency: "evaluando",
        budget: "consultar",
        consent: "on",
        source,
      },
    });
    expect(response.status(), `lead ${index + 1}`).toBe(200);
  }
}
