#!/usr/bin/env node
// Part of `npm run lint`: fails when the import graph of app/ breaks the rules of docs/architecture.md.
// oxlint checks each import on its own (layer rules in .oxlintrc.json, import/no-cycle between modules); this
// checks what needs the whole graph: imports between feature folders outside the allowed list, cycles between
// feature folders, and value imports that run up the layers (e.g. db/ → the part of lib/ above it).
import { analyse, FEATURE_IMPORTS, LAYERS, packagesReachedFrom } from "./import-graph.mjs";

const result = analyse();
const problems = [];

for (const e of result.notAllowed) {
  const allowed = FEATURE_IMPORTS[e.fromAt.feature] ?? [];
  problems.push(
    `${e.from}: imports ${e.to}, but features/${e.fromAt.feature} may import only ` +
      `${allowed.length ? allowed.map((f) => `features/${f}`).join(", ") : "no other feature"} ` +
      `(architecture/feature-imports: move what both need below features/, or add the line to FEATURE_IMPORTS ` +
      `in scripts/import-graph.mjs and docs/architecture.md with its reason)`,
  );
}
for (const cycle of result.featureCycles) {
  problems.push(
    `features ${cycle.join(" ⇄ ")} import each other in a loop (architecture/no-feature-cycle: ` +
      `move what they share below features/)`,
  );
}
for (const e of result.upward) {
  problems.push(
    `${e.from}: imports ${e.to}, which runs up the layers (${e.fromAt.layer} → ${e.toAt.layer}; ` +
      `architecture/layers, from the bottom: ${LAYERS.join(" < ")})`,
  );
}

// The landing is rendered for every signed-in visitor (issue 25's SSR budget): its icons are prepared markup, not
// lucide-react's components (ADR 054).
for (const use of packagesReachedFrom(["app/root.tsx", "app/routes/_public/home.tsx"])) {
  if (use.spec === "lucide-react")
    problems.push(
      `${use.from}: imports lucide-react, and the landing's render loads this module (architecture/landing-icons: ` +
        `use ~/components/static-icons, which draws lucide's shapes as prepared markup; ADR 054)`,
    );
}

if (problems.length > 0) {
  console.error(`architecture: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  for (const problem of problems) console.error(`  x ${problem}`);
  process.exit(1);
}
console.log(
  `architecture: ${result.edges.length} imports checked; ${result.featureEdges.length} between feature folders, ` +
    `all allowed; no feature cycle; nothing runs up the layers`,
);
