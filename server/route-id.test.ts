import { describe, expect, it } from "vitest";
import { createRouteIdResolver } from "./route-id.mjs";

const routes = {
  root: { id: "root", path: "", parentId: undefined },
  "routes/home": { id: "routes/home", index: true, parentId: "root" },
  "routes/_patient/layout": { id: "routes/_patient/layout", path: "portal", parentId: "root" },
  "routes/_patient/appointment": {
    id: "routes/_patient/appointment",
    path: "citas/:appointmentId",
    parentId: "routes/_patient/layout",
  },
  "routes/_patient/appointments": {
    id: "routes/_patient/appointments",
    path: "citas",
    parentId: "routes/_patient/layout",
  },
};

describe("createRouteIdResolver", () => {
  const routeIdFor = createRouteIdResolver(routes) as (pathname: string) => string;

  it("names the deepest matched route, never the URL's ids", () => {
    expect(routeIdFor("/portal/citas/8f1c2b7e-0000-4000-8000-000000000000")).toBe(
      "routes/_patient/appointment",
    );
    expect(routeIdFor("/portal/citas")).toBe("routes/_patient/appointments");
    expect(routeIdFor("/")).toBe("routes/home");
  });

  it("counts a data request as its page", () => {
    expect(routeIdFor("/portal/citas/abc.data")).toBe("routes/_patient/appointment");
    expect(routeIdFor("/_root.data")).toBe("routes/home");
  });

  it("labels the route-discovery endpoint as such, not as the page a splat route would match", () => {
    const withSplat = createRouteIdResolver({
      ...routes,
      "routes/not-found": { id: "routes/not-found", path: "*", parentId: "root" },
    }) as (pathname: string) => string;
    expect(withSplat("/__manifest")).toBe("route-manifest");
    expect(withSplat("/no-existe")).toBe("routes/not-found");
    const custom = createRouteIdResolver(routes, { manifestPath: "/_rutas" }) as (pathname: string) => string;
    expect(custom("/_rutas")).toBe("route-manifest");
  });

  it("labels a path no route matches as unmatched", () => {
    expect(routeIdFor("/no-existe/123")).toBe("unmatched");
  });
});
