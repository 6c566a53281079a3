import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import type { RoleName } from "~/domain/roles";
import routeConfig from "~/routes";
import { clientForm, clientGet } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle, type RouteResult } from "../setup/route-results";
import { createStaffMember, createTestUser, type TestUser } from "../setup/factories";

/**
 * The route manifest walk (DESIGN §4: every loader and action starts with a guard). Every route file in
 * app/routes.ts is either PUBLIC (listed below, with a reason) or GUARDED (listed with who may use it). A new route
 * that is in neither list fails this test, so nobody can forget to decide.
 */

const PUBLIC_ROUTES: Record<string, string> = {
  "routes/_public/home.tsx": "landing page and lead form",
  "routes/_public/privacy-policy.tsx": "legal page",
  "routes/_public/terms-of-service.tsx": "legal page",
  "routes/_public/data-rights-request.tsx":
    "public entry to the rights workflow: nothing is processed until a link or code proves control (ADR 037)",
  "routes/_public/data-rights-confirm.tsx":
    "the e-mailed single-use link of /eliminar-datos; the unguessable token is the credential (ADR 037)",
  "routes/_public/callback-request.tsx": "public call-back form (devolver llamada)",
  "routes/_public/blog.tsx": "blog index",
  "routes/_public/blog-article.tsx": "blog article",
  "routes/_public/guide-download.ts": "downloadable guides",
  "routes/_public/appointment-confirm-link.tsx":
    "a reminder's single-use link; the unguessable token is the credential",
  "routes/_public/appointment-cancel-link.tsx":
    "a reminder's single-use link; the unguessable token is the credential",
  "routes/_public/waitlist-offer.tsx":
    "a waitlist offer's single-use link; the unguessable token is the credential (another signed-in account: 403)",
  "routes/_public/appointment-callback-link.tsx":
    "a reminder's single-use 'Necesito hablar con alguien' link; the unguessable token is the credential",
  "routes/_public/not-found.tsx": "404 page",
  "routes/_public/webpay-return.ts":
    "Webpay's return_url: its cross-site POST carries no Lax cookie; the token we issued is the key (ADR 036)",
  "routes/_chat/room.tsx":
    "the chat room page the widget frames: no data of its own, the guest's token arrives by postMessage",
  "routes/_auth/auth.tsx": "sign-in / sign-up page",
  "routes/_auth/oauth-callback.tsx": "OAuth landing page (reports success or error)",
  "routes/_auth/google-start.ts": "starts the Google flow",
  "routes/_auth/session-state.ts": "popup's final check, answers only signedIn: boolean",
  "routes/_auth/sign-out.ts": "signing out needs no session",
  "routes/_auth/forgot-password.tsx": "password reset request",
  "routes/_auth/reset-password.tsx": "password reset with the mailed token",
  "routes/api/auth.ts": "Better Auth handler (OAuth callbacks, e-mail links)",
  "routes/api/healthz.ts": "health check",
  "routes/api/readyz.ts": "readiness check: names each check, no secrets",
  "routes/api/metrics.ts": "Prometheus metrics: 404 unless the bearer token is METRICS_TOKEN",
  "routes/api/backup.ts":
    "npm run backup: loopback and the token of DATA_DIR/servidor.json only (ADR 046), tested in backup-endpoint",
  "routes/api/whatsapp-reports.ts": "provider webhook, guarded by WHATSAPP_WEBHOOK_SECRET (401 without it)",
  "routes/api/whatsapp-inbound.ts": "provider webhook, guarded by WHATSAPP_WEBHOOK_SECRET (401 without it)",
  "routes/api/chat/guest.ts": "guest chat platform: a guest's owner is its session or its browser cookie",
  "routes/api/chat/guest-update.ts":
    "guest chat platform: only the guest's owner (session or cookie) changes it",
  "routes/api/chat/guest-login.ts":
    "guest chat platform: tokens only for the guest's owner (session or cookie)",
  "routes/api/chat/guest-token-refresh.ts": "guest chat platform: the refresh token is the credential",
  "routes/api/chat/guest-room.ts": "guest chat platform: only the guest's owner opens its room",
  "routes/api/chat/guest-room-members.ts": "guest chat platform: only the room's own guest joins it",
  "routes/api/chat/room.ts": "guest chat platform: the room by bearer token (chat-platform test)",
  "routes/api/chat/room-events.ts": "guest chat platform: the room's stream by bearer token",
  "routes/api/chat/room-messages.ts": "guest chat platform: writing by bearer token",
  "routes/api/chat/room-consent.ts": "guest chat platform: the AI notice by bearer token",
  "routes/api/chat/room-handoff.ts": "guest chat platform: asking for a person by bearer token",
  "routes/api/chat/not-found.ts": "any other path under /api/chat/: a JSON 404",
  "routes/api/sitemap.ts": "sitemap.xml",
  "routes/api/robots.ts": "robots.txt",
  "routes/_dev/outbox.tsx": "demo-only mail viewer (404 with SMTP or outside demo mode)",
  "routes/_dev/webpay-demo.ts":
    "demo-only Webpay fake (API keyed by the public integration key, payment form by token; 404 outside demo mode)",
};

/** "signed-in": any session; a role: the staff role that may use it (patients must get 403). */
type Guard = "signed-in" | RoleName;

const GUARDED_ROUTES: Record<string, Guard> = {
  "routes/_auth/continue.ts": "signed-in",
  "routes/_account/security.tsx": "signed-in",
  "routes/_account/data-exports.ts": "signed-in",
  "routes/_account/data-export-status.ts": "signed-in",
  "routes/_account/data-export-download.ts": "signed-in",
  "routes/_account/my-data.tsx": "signed-in",
  "routes/_patient/patient-layout.tsx": "signed-in",
  "routes/_patient/dashboard.tsx": "signed-in",
  "routes/_patient/appointments.tsx": "signed-in",
  "routes/_patient/appointment-slots.ts": "signed-in",
  "routes/_patient/appointment-calendar.ts": "signed-in",
  "routes/_patient/advisor.tsx": "signed-in",
  "routes/_patient/profile.tsx": "signed-in",
  "routes/_patient/my-data.tsx": "paciente",
  "routes/_patient/clinical-record.tsx": "signed-in",
  "routes/_patient/clinical-record-file.ts": "signed-in",
  "routes/_patient/payments.tsx": "signed-in",
  "routes/_patient/waitlist.tsx": "signed-in",
  "routes/_patient/payment-receipt.ts": "signed-in",
  "routes/_patient/payment-checkout.tsx": "signed-in",
  "routes/_patient/payment-result.tsx": "signed-in",
  "routes/_patient/forms.tsx": "signed-in",
  "routes/_patient/form-fill.tsx": "signed-in",
  "routes/_patient/form-pdf.ts": "signed-in",
  "routes/_admin/payments.tsx": "asesor",
  "routes/_admin/payments-export.ts": "asesor",
  "routes/_dentist/agenda.tsx": "dentista",
  "routes/_dentist/clinical-record.tsx": "dentista",
  "routes/_dentist/clinical-record-file.ts": "dentista",
  "routes/_dentist/no-show-mark.ts": "dentista",
  "routes/_dentist/form-submission.tsx": "dentista",
  "routes/_dentist/form-submission-pdf.ts": "dentista",
  "routes/_staff/funnel.tsx": "asesor",
  "routes/_staff/lead-export.ts": "asesor",
  "routes/_staff/dentalink-mock.tsx": "asesor",
  "routes/_staff/conversations.tsx": "asesor",
  "routes/_staff/conversation-events.ts": "asesor",
  "routes/_staff/test-dashboard.tsx": "asesor",
  "routes/_staff/test-whatsapp.ts": "asesor",
  "routes/_staff/messages.tsx": "asesor",
  "routes/_staff/callback-requests.tsx": "asesor",
  "routes/_staff/lead-detail.tsx": "asesor",
  "routes/_staff/analytics-csv.ts": "asesor",
  "routes/_staff/analytics-settings.tsx": "asesor",
  "routes/_admin/admin-layout.tsx": "admin",
  "routes/_admin/users.tsx": "admin",
  "routes/_admin/user-detail.tsx": "admin",
  "routes/_admin/requests.tsx": "admin",
  "routes/_admin/privacy-requests.tsx": "admin",
  "routes/_admin/privacy-request-detail.tsx": "admin",
  "routes/_admin/audit-log.tsx": "admin",
  "routes/_admin/waitlist.tsx": "admin",
  "routes/_admin/reminder-settings.tsx": "admin",
  "routes/_admin/privacy-incidents.tsx": "admin",
  "routes/_admin/privacy-incidents-export.ts": "admin",
  "routes/_admin/privacy-incident.tsx": "admin",
  "routes/_admin/day-agenda.tsx": "admin",
  "routes/_admin/no-show-settings.tsx": "admin",
};

/** Files in these folders are staff pages: a patient must be refused. */
const STAFF_FOLDERS = ["routes/_staff/", "routes/_admin/", "routes/_dentist/"];

interface ConfigEntry {
  file: string;
  path?: string;
  index?: boolean;
  children?: ConfigEntry[];
}

interface ManifestRoute {
  file: string;
  /** URL pattern without the leading slash ("" for the root), e.g. "admin/usuarios/:userId". */
  pattern: string;
}

function joinPaths(parent: string, child: string | undefined) {
  if (!child) return parent;
  return [parent, child].filter(Boolean).join("/");
}

/** Flattens routes.ts; a pathless layout takes the URL of its first child. */
function flatten(entries: readonly ConfigEntry[], parent = ""): ManifestRoute[] {
  const out: ManifestRoute[] = [];
  for (const entry of entries) {
    const pattern = entry.index ? parent : joinPaths(parent, entry.path);
    const children = entry.children ? flatten(entry.children, pattern) : [];
    const layoutPattern = entry.path === undefined && !entry.index ? children[0]?.pattern : undefined;
    out.push({ file: entry.file, pattern: layoutPattern ?? pattern }, ...children);
  }
  return out;
}

const manifest = flatten(routeConfig as readonly ConfigEntry[]);
const routeFiles = [...new Set(manifest.map((route) => route.file))];

const modules = import.meta.glob(["/app/routes/**/*.{ts,tsx}", "!/app/routes/**/*.test.{ts,tsx}"]);

interface RouteModule {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
}

async function loadModule(file: string): Promise<RouteModule> {
  const importer = modules[`/app/${file}`];
  if (!importer) throw new Error(`routes.ts names ${file}, which is not under app/routes`);
  return (await importer()) as RouteModule;
}

/** The URL and params for a pattern, with dummy values (or `values`) for the dynamic segments. */
function fill(pattern: string, values: Record<string, string> = {}) {
  const params: Record<string, string> = {};
  const segments = pattern
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (segment === "*") {
        params["*"] = "x";
        return "x";
      }
      if (segment.startsWith(":")) {
        const name = segment.slice(1).replace(/\?$/, "");
        params[name] = values[name] ?? randomUUID();
        return params[name];
      }
      return segment.replace(/\?$/, "");
    });
  return { path: `/${segments.join("/")}`, params };
}

type Method = "loader" | "action";

async function call(
  module: RouteModule,
  method: Method,
  pattern: string,
  options: { cookie?: string; values?: Record<string, string> } = {},
) {
  const { path, params } = fill(pattern, options.values);
  const request =
    method === "loader"
      ? clientGet(path, { cookie: options.cookie })
      : clientForm(path, { intent: "probe" }, { cookie: options.cookie });
  const handler = module[method]!;
  return { path, result: await settle(() => handler(routeArgs(request, params) as never)) };
}

function describeResult(result: RouteResult) {
  return `${result.thrown ? "threw" : "returned"} ${result.status}${result.location ? ` → ${result.location}` : ""}`;
}

/** Anonymous: a redirect to /auth?redirectTo=<this page>, or a 403/404 — never data. */
function anonymousProblem(path: string, result: RouteResult): string | null {
  if (result.status === 302 || result.status === 303) {
    const location = result.location ?? "";
    const target = new URL(location, "http://localhost:3000");
    if (
      target.pathname === "/auth" &&
      target.searchParams.get("redirectTo") === path &&
      location.startsWith("/")
    ) {
      return null;
    }
    return `redirects to ${location}, not to /auth?redirectTo=${path}`;
  }
  // 401: an event stream, which cannot follow a redirect to the sign-in page.
  if (result.status === 401 || result.status === 403 || result.status === 404) return null;
  return `answers anonymously: ${describeResult(result)}`;
}

let patient: TestUser;
let privileged: Partial<Record<RoleName, TestUser>>;
let target: TestUser;

beforeAll(async () => {
  patient = await createTestUser();
  target = await createTestUser();
  privileged = {};
  const roles = [...new Set(Object.values(GUARDED_ROUTES))].filter((guard) => guard !== "signed-in");
  for (const role of roles) {
    // Staff two-factor may be required (PostgreSQL runs are not demo mode): count it as done.
    privileged[role] = await createStaffMember([role]);
  }
});
afterAll(closeDb);

describe("route manifest", () => {
  it("classifies every route of app/routes.ts as public or guarded (and nothing stale)", () => {
    expect(routeFiles.length).toBeGreaterThan(10);
    const unclassified = routeFiles.filter((file) => !(file in PUBLIC_ROUTES) && !(file in GUARDED_ROUTES));
    expect(unclassified, "add each new route to PUBLIC_ROUTES or GUARDED_ROUTES").toEqual([]);
    const both = routeFiles.filter((file) => file in PUBLIC_ROUTES && file in GUARDED_ROUTES);
    expect(both).toEqual([]);
    const stale = [...Object.keys(PUBLIC_ROUTES), ...Object.keys(GUARDED_ROUTES)].filter(
      (file) => !routeFiles.includes(file),
    );
    expect(stale, "listed here but no longer in routes.ts").toEqual([]);
    const staffPagesMarkedPublic = routeFiles.filter(
      (file) =>
        STAFF_FOLDERS.some((folder) => file.startsWith(folder)) &&
        (file in PUBLIC_ROUTES || GUARDED_ROUTES[file] === "signed-in"),
    );
    expect(staffPagesMarkedPublic, "staff pages need a staff role").toEqual([]);
  });

  it("finds every route module on disk", () => {
    const missing = routeFiles.filter((file) => !modules[`/app/${file}`]);
    expect(missing).toEqual([]);
  });
});

const guardedRoutes = manifest.filter((route) => !(route.file in PUBLIC_ROUTES));

describe("anonymous visitors", () => {
  it.each(guardedRoutes.map((route) => [route.file, route] as const))(
    "%s: loader and action refuse without a session",
    async (_file, route) => {
      const module = await loadModule(route.file);
      const problems: string[] = [];
      for (const method of ["loader", "action"] as const) {
        if (typeof module[method] !== "function") continue;
        const { path, result } = await call(module, method, route.pattern);
        const problem = anonymousProblem(path, result);
        if (problem) problems.push(`${method}: ${problem}`);
      }
      expect(problems).toEqual([]);
    },
  );
});

const staffRoutes = guardedRoutes.filter((route) =>
  STAFF_FOLDERS.some((folder) => route.file.startsWith(folder)),
);

describe("signed-in patients on staff pages", () => {
  it.each(staffRoutes.map((route) => [route.file, route] as const))(
    "%s: loader and action answer 403",
    async (_file, route) => {
      const module = await loadModule(route.file);
      const guard = GUARDED_ROUTES[route.file];
      // A real user id, so a page without a role check would find (and show) a record.
      const values = { userId: target.id, patientId: target.id, id: target.id };
      const problems: string[] = [];
      for (const method of ["loader", "action"] as const) {
        if (typeof module[method] !== "function") continue;
        const { result } = await call(module, method, route.pattern, { cookie: patient.cookie, values });
        if (result.status === 403) continue;
        if (result.status === 404 && guard && guard !== "signed-in") {
          // A placeholder that does not exist for anybody yet (404 for its own staff too) leaks nothing.
          const staff = privileged[guard];
          const asStaff =
            staff && (await call(module, method, route.pattern, { cookie: staff.cookie, values }));
          if (asStaff && asStaff.result.status === 404) continue;
        }
        problems.push(`${method}: ${describeResult(result)}`);
      }
      expect(problems).toEqual([]);
    },
  );
});

describe("staff on their own pages", () => {
  it.each(staffRoutes.map((route) => [route.file, route] as const))(
    "%s: the loader lets its role through (the 403s above are the role check)",
    async (_file, route) => {
      const module = await loadModule(route.file);
      const guard = GUARDED_ROUTES[route.file];
      if (typeof module.loader !== "function" || !guard || guard === "signed-in") return;
      const staff = privileged[guard]!;
      const values = { userId: target.id, patientId: target.id, id: target.id };
      const { result } = await call(module, "loader", route.pattern, { cookie: staff.cookie, values });
      const refused = result.status === 403 || (result.location ?? "").startsWith("/auth");
      expect(refused ? describeResult(result) : "let through").toBe("let through");
    },
  );
});
