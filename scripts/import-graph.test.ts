import { describe, expect, it } from "vitest";
import { analyse, collectEdges, cyclesOf, locate, packagesReachedFrom } from "./import-graph.mjs";

type Edge = ReturnType<typeof collectEdges>[number];

const at = (path: string) => locate(`${process.cwd()}/${path}`);

function edge(from: string, to: string, typeOnly = false): Edge {
  return { from, to, typeOnly, fromAt: at(from), toAt: at(to) };
}

describe("the import graph's rules", () => {
  it("places modules in their layer, lib/base below db and the rest of lib above it", () => {
    expect(locate(`${process.cwd()}/app/lib/base/env.server.ts`)).toEqual({ layer: "lib-base" });
    expect(locate(`${process.cwd()}/app/lib/guards.server.ts`)).toEqual({ layer: "lib" });
    expect(locate(`${process.cwd()}/app/features/crm/lead-panel-options.ts`)).toEqual({
      layer: "features",
      feature: "crm",
    });
  });

  it("finds a loop of three folders and a self-loop, and nothing in a chain", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["d"])],
      ["e", new Set(["a"])],
    ]);
    expect(cyclesOf(graph)).toEqual([["a", "b", "c"], ["d"]]);
    expect(
      cyclesOf(
        new Map([
          ["x", new Set(["y"])],
          ["y", new Set<string>()],
        ]),
      ),
    ).toEqual([]);
  });

  it("reports a planted feature loop, the import outside the allowed list and an upward import", () => {
    const planted = [
      edge("app/features/outbox/outbox.server.ts", "app/features/messaging/whatsapp-outbox.server.ts"),
      edge("app/features/messaging/whatsapp-outbox.server.ts", "app/features/outbox/outbox.server.ts"),
      edge("app/db/client.server.ts", "app/lib/guards.server.ts"),
      edge("app/lib/base/errors.ts", "app/lib/cn.ts", true),
    ];
    const result = analyse(planted);
    expect(result.featureCycles).toEqual([["messaging", "outbox"]]);
    expect(result.notAllowed.map((e) => `${e.fromAt.feature} → ${e.toAt.feature}`)).toEqual([
      "outbox → messaging",
    ]);
    // A type-only import is erased at build, so it does not count as running up the layers.
    expect(result.upward.map((e) => e.from)).toEqual(["app/db/client.server.ts"]);
  });

  it("holds for the code as it is: no feature loop, nothing outside the list, nothing up the layers", () => {
    const result = analyse();
    expect(result.featureCycles).toEqual([]);
    expect(result.fileCycles).toEqual([]);
    expect(result.notAllowed.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    expect(result.upward.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it("lists the packages a page's render loads by static import, not those loaded on demand or for types", () => {
    const reached = packagesReachedFrom(["app/root.tsx", "app/routes/_public/home.tsx"]);
    const specs = new Set(reached.map((use) => use.spec));
    expect(specs.has("react-router")).toBe(true);
    // static-icons is imported by the landing's header (static import) and draws lucide's shapes itself.
    expect(reached).toContainEqual({
      from: "app/components/static-icons.tsx",
      spec: "lucide-react/icons/mail",
    });
    // The helper's panel is loaded on demand (lazy import) and uses lucide-react's components: not reached.
    expect(specs.has("lucide-react")).toBe(false);
    expect(reached.some((use) => use.from === "app/features/helper/components/helper-panel.tsx")).toBe(false);
  });
});
