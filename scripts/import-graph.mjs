#!/usr/bin/env node
// The import graph of app/: which module imports which, by layer and by feature folder.
// Used by `npm run lint` (scripts/check-architecture.mjs) and to report the graph in a closing note
// (`node scripts/import-graph.mjs` prints a summary; `--json` prints everything).
// The rules it checks are written down in docs/architecture.md; this file holds the same table.
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const appDir = join(root, "app");

/**
 * Layers from the bottom up. A module may import its own layer or a lower one, never a higher one.
 * lib/ is split: the part below db/ (env, logger, errors: what the database client needs) and the rest above it.
 */
export const LAYERS = [
  "data", // config/, i18n/, content/: leaf data
  "domain", // pure rules
  "integrations", // clients and fakes of external systems (take their configuration as arguments)
  "lib-base", // lib/base/: env, logger, errors — what db/ may use
  "db", // schema, client, migrations, seed
  "lib", // the rest of lib/: auth, guards, request helpers
  "components", // app-wide UI
  "features", // feature folders (see FEATURE_IMPORTS for imports between them)
  "jobs", // in-process workers, started by startup/
  "routes", // route modules
  "startup", // composition root
  "root", // root.tsx, entry.server.tsx, routes.ts
];

/**
 * The only imports allowed between feature folders: importer → what it may import.
 * Everything else a feature needs from another area lives below features/ (domain/, lib/, components/).
 * Keep this list short; docs/architecture.md explains each line.
 */
export const FEATURE_IMPORTS = {
  admin: ["payments", "requests"], // the request admin lists the request form's options; the payments admin refunds and waives through the payment services
  advisor: [],
  agent: ["content"], // the agent answers from the site's content
  analytics: [],
  appointments: ["consent", "dentalink-sync", "email", "forms", "messaging"], // bookings are written through to Dentalink and announced on WhatsApp (with the patient's consent); a booking creates its intake and consent forms; the booking confirmation e-mail offers 'Agregar al calendario'
  auth: ["email", "outbox"], // account e-mails are queued in the outbox
  blog: [],
  chat: ["agent", "auth", "consent"], // the AI notice is a ledger consent; a room's replies come from the agent; a signed-in guest's tokens are bound to its session
  "clinical-record": ["dentalink-sync", "email", "messaging", "outbox", "payments"], // records read from Dentalink; codes sent by e-mail or WhatsApp; the Pagos tab pays a budget's balance through the payment services
  consent: [], // the consent ledger and restrictions: a leaf, so every sending path may consult it (ADR 037)
  content: [],
  crm: ["messaging"], // the lead page shows the lead's WhatsApp messages with their labels
  "dentalink-sync": ["crm", "outbox"], // syncing a lead checks the viewer may change it and moves it to scheduled; write-throughs are outbox rows
  dentist: ["appointments"], // the agenda shows appointment statuses
  email: ["outbox"], // e-mails are outbox rows
  forms: [], // intake and consent forms (ADR 041): a leaf, so the booking can assign them and the dashboards count them
  helper: ["leads"], // the guided assistant posts the lead form and reads its result type
  landing: ["blog"], // the landing shows the guides' covers
  leads: ["consent", "crm", "messaging"], // a new lead is assigned (round-robin) and gets its two WhatsApp messages; its consent is recorded and an objection to profiling leaves it unscored
  legal: [],
  messaging: ["consent", "outbox"], // WhatsApp messages are outbox rows, sent only while the person's consent is in force
  outbox: [],
  payments: ["appointments", "consent", "messaging", "no-shows", "outbox"], // a deposit holds and confirms a booking; payment notices go by WhatsApp (with the patient's consent) or e-mail through the outbox; repeated no-shows without payments refuse online booking
  privacy: ["consent", "email", "messaging", "outbox"], // requests put objections and blocking in force and the data map finds a subject's consents (consent leaf); proofs and answers go by e-mail or WhatsApp through the outbox
  "no-shows": [], // marks, counts and the clinic's rule for repeated no-shows: a leaf, so booking may consult it (ADR 042)
  "patient-dashboard": ["appointments", "forms", "profile"], // the patient's home composes their appointments, profile and forms to fill
  profile: ["consent"], // Mi Perfil's WhatsApp checkbox gives or withdraws the consent in the ledger
  reminders: ["appointments", "consent", "messaging", "payments"], // a reminder's link confirms the appointment or cancels it with its deposit and fee settled; reminders go out on WhatsApp
  requests: [],
  seo: [],
  waitlist: ["appointments", "consent", "email", "messaging", "payments", "reminders"], // freed slots are offered by WhatsApp (with consent) and e-mail with single-use links (the reminders' tokens); a claim books through the appointment service, with its deposit through payments
  staff: ["analytics", "crm", "dentalink-sync", "leads", "messaging", "payments"], // the top feature: composes the staff dashboards (the Overview's Webpay line reads the payment mode)
};

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === "migrations" || name === "node_modules") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (SOURCE.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function resolveSpecifier(from, spec) {
  let base;
  if (spec.startsWith("~/")) base = join(appDir, spec.slice(2));
  else if (spec.startsWith(".")) base = resolve(dirname(from), spec);
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Where a module of app/ sits: its layer and, under features/, its feature folder. */
export function locate(file) {
  const rel = relative(appDir, file).split("\\").join("/");
  const [top, second] = rel.split("/");
  if (["root.tsx", "entry.server.tsx", "routes.ts"].includes(top)) return { layer: "root" };
  if (["config", "i18n", "content"].includes(top)) return { layer: "data" };
  if (top === "lib") return { layer: second === "base" ? "lib-base" : "lib" };
  if (top === "features") return { layer: "features", feature: second };
  if (LAYERS.includes(top)) return { layer: top };
  if (top === "components") return { layer: "components" };
  return { layer: top };
}

/** Every import between two modules of app/, with whether it is type-only (erased at build). */
export function collectEdges() {
  const edges = [];
  for (const file of walk(appDir)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[2] ?? match[3];
      const target = resolveSpecifier(file, spec);
      if (!target || !target.startsWith(appDir)) continue;
      edges.push({
        from: relative(root, file),
        to: relative(root, target),
        typeOnly: Boolean(match[1]),
        fromAt: locate(file),
        toAt: locate(target),
      });
    }
  }
  return edges;
}

/**
 * The npm packages (bare specifiers) that modules reachable from `entries` by static value imports load, each with
 * the module that imports it: what a page's server render runs. Dynamic `import()` (code loaded on demand) and
 * type-only imports are not followed.
 */
export function packagesReachedFrom(entries) {
  const seen = new Set();
  const found = [];
  const queue = entries.map((entry) => resolve(root, entry));
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const spec = match[2];
      if (!spec || match[1]) continue;
      const target = resolveSpecifier(file, spec);
      if (target) queue.push(target);
      else if (!spec.startsWith(".") && !spec.startsWith("~/"))
        found.push({ from: relative(root, file), spec });
    }
  }
  return found;
}

/** Strongly connected components with more than one node (Tarjan), i.e. the cycles of a graph. */
export function cyclesOf(adjacency) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of adjacency.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (adjacency.get(node) ?? new Set()).has(node))
        components.push(component.toSorted());
    }
  };
  for (const node of adjacency.keys()) if (!indices.has(node)) visit(node);
  return components;
}

function adjacencyOf(pairs) {
  const adjacency = new Map();
  for (const [from, to] of pairs) {
    if (!adjacency.has(from)) adjacency.set(from, new Set());
    if (!adjacency.has(to)) adjacency.set(to, new Set());
    adjacency.get(from).add(to);
  }
  return adjacency;
}

const rank = (layer) => LAYERS.indexOf(layer);

/** The figures a reader of the architecture wants, and the violations `npm run lint` fails on. */
export function analyse(edges = collectEdges()) {
  const featureEdges = edges.filter(
    (e) => e.fromAt.feature && e.toAt.feature && e.fromAt.feature !== e.toAt.feature,
  );
  const upward = edges.filter((e) => rank(e.toAt.layer) > rank(e.fromAt.layer) && !e.typeOnly);
  const notAllowed = featureEdges.filter(
    (e) => !(FEATURE_IMPORTS[e.fromAt.feature] ?? []).includes(e.toAt.feature),
  );
  const featureCycles = cyclesOf(adjacencyOf(featureEdges.map((e) => [e.fromAt.feature, e.toAt.feature])));
  const fileCycles = cyclesOf(adjacencyOf(edges.filter((e) => !e.typeOnly).map((e) => [e.from, e.to])));
  return { edges, featureEdges, upward, notAllowed, featureCycles, fileCycles };
}

function summary(result) {
  const lines = [];
  const pairs = new Map();
  for (const e of result.featureEdges) {
    const key = `${e.fromAt.feature} → ${e.toAt.feature}`;
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
  }
  lines.push(
    `modules: ${new Set(result.edges.flatMap((e) => [e.from, e.to])).size}, imports: ${result.edges.length}`,
  );
  lines.push(`imports between feature folders: ${result.featureEdges.length} (${pairs.size} folder pairs)`);
  for (const [key, count] of [...pairs].toSorted()) lines.push(`  ${key}  ×${count}`);
  lines.push(`imports that run up the layers: ${result.upward.length}`);
  for (const e of result.upward) lines.push(`  ${e.from} (${e.fromAt.layer}) → ${e.to} (${e.toAt.layer})`);
  lines.push(`feature imports not in the allowed list: ${result.notAllowed.length}`);
  for (const e of result.notAllowed) lines.push(`  ${e.from} → ${e.to}`);
  lines.push(`cycles between feature folders: ${result.featureCycles.length}`);
  for (const c of result.featureCycles) lines.push(`  ${c.join(" ⇄ ")}`);
  lines.push(`cycles between modules (value imports): ${result.fileCycles.length}`);
  for (const c of result.fileCycles) lines.push(`  ${c.join(" ⇄ ")}`);
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = analyse();
  if (process.argv.includes("--json")) console.log(JSON.stringify(result, null, 2));
  else console.log(summary(result));
}
