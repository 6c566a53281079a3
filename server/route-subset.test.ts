import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import { routeSubsetBuild } from "./route-subset.mjs";
import { routeTree } from "./route-tree.mjs";

const routeList = [
  { id: "root", path: "", parentId: undefined },
  { id: "routes/home", index: true, parentId: "root" },
  { id: "routes/blog", path: "blog", parentId: "root" },
  { id: "routes/blog-article", path: "blog/:slug", parentId: "root" },
  { id: "routes/_patient/layout", path: "portal", parentId: "root" },
  { id: "routes/_patient/dashboard", index: true, parentId: "routes/_patient/layout" },
  { id: "routes/splat", path: "*", parentId: "root" },
];
const routes = Object.fromEntries(
  routeList.map((route) => [route.id, { ...route, module: { default: () => null } }]),
);
const assetRoutes = Object.fromEntries(
  routeList.map((route) => [route.id, { ...route, module: `/assets/${route.id}.js` }]),
);
const build = {
  basename: "/",
  ssr: true,
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  entry: { module: {} },
  routes,
  assets: {
    entry: { module: "/assets/entry.js", imports: [] },
    url: "/assets/manifest.js",
    version: "v1",
    routes: assetRoutes,
  },
};

const idsFor = (tree: ReturnType<typeof routeTree>, path: string) =>
  matchRoutes(tree, path)?.map((match) => match.route.id);

describe("routeSubsetBuild", () => {
  const subset = routeSubsetBuild(build, "/");

  it("keeps only the routes the path matches, in the build and in its assets manifest", () => {
    expect(Object.keys(subset.routes)).toEqual(["root", "routes/home"]);
    expect(Object.keys(subset.assets.routes)).toEqual(["root", "routes/home"]);
    expect(subset.routes["routes/home"]).toBe(routes["routes/home"]);
    expect(subset.assets.routes.root).toBe(assetRoutes.root);
  });

  it("matches the path to the same routes as the whole build", () => {
    expect(idsFor(routeTree(subset.routes), "/")).toEqual(idsFor(routeTree(routes), "/"));
    expect(idsFor(routeTree(subset.routes), "/")).toEqual(["root", "routes/home"]);
  });

  it("leaves the rest of the build as it was (same assets version and entry, the original untouched)", () => {
    expect(subset.assets.version).toBe("v1");
    expect(subset.assets.entry).toBe(build.assets.entry);
    expect(subset.entry).toBe(build.entry);
    expect(subset.routeDiscovery).toBe(build.routeDiscovery);
    expect(Object.keys(build.routes)).toHaveLength(routeList.length);
    expect(Object.keys(build.assets.routes)).toHaveLength(routeList.length);
  });

  it("keeps the whole build when route discovery is off (the browser then needs every route's manifest)", () => {
    const initial = { ...build, routeDiscovery: { mode: "initial" } };
    expect(routeSubsetBuild(initial, "/")).toBe(initial);
  });

  it("refuses a path no route matches", () => {
    const noSplat = { ...build, routes: { root: routes.root, "routes/home": routes["routes/home"] } };
    expect(() => routeSubsetBuild(noSplat, "/nada")).toThrow(/no route matches/);
  });
});
