// The route id a request's metrics are labelled with (issue 25): React Router's deepest matched route for its path,
// not the URL — `routes/_patient/appointment-detail`, never `/portal/citas/8f1c…`. server.mjs builds one resolver
// from the server build's route manifest.
import { matchRoutes } from "react-router";
import { routeTree } from "./route-tree.mjs";

/**
 * `routes`: the build's `routes` object ({ id, parentId, path, index, caseSensitive } per route); `manifestPath`: the
 * build's route-discovery endpoint (`build.routeDiscovery.manifestPath`, "/__manifest"), labelled `route-manifest`
 * (the splat route of the 404 page would otherwise match it, and count the client's route discovery as 404 pages).
 */
export function createRouteIdResolver(routes, { manifestPath = "/__manifest" } = {}) {
  const tree = routeTree(routes);
  const cache = new Map();

  /** The deepest matched route id for `pathname` (a `.data` request counts as its page), or "unmatched". */
  return function routeIdFor(pathname) {
    if (pathname === manifestPath) return "route-manifest";
    let target = pathname;
    if (target.endsWith(".data")) {
      target = target.slice(0, -".data".length);
      if (target === "/_root") target = "/";
    }
    const known = cache.get(target);
    if (known) return known;
    const matches = matchRoutes(tree, target);
    const id = matches?.length ? matches[matches.length - 1].route.id : "unmatched";
    // Only a bounded number of paths is remembered: ids in URLs are unbounded.
    if (cache.size < 2000) cache.set(target, id);
    return id;
  };
}
