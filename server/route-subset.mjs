// The landing's own request handler (ADR 052): a copy of the server build that holds only the routes `/` matches
// (the root and the home page). React Router matches a document request's path four times (its static handler, the
// server runtime, the static router and the <Scripts> manifest), each a scan over every route branch with `/`
// ranked last; over two routes instead of 105 that is ~10 % of a rendered `/`'s CPU less. The browser receives the
// same page: with lazy route discovery <Scripts> sends only the matched routes' manifest entries anyway, and the
// other routes are found through /__manifest, which the full build answers.
import { matchRoutes } from "react-router";
import { routeTree } from "./route-tree.mjs";

/**
 * `build`: a React Router server build. Answers a copy whose `routes` and `assets.routes` hold only the routes that
 * `pathname` matches; everything else (entry, assets' version and entry module, flags) is the build's own. Without
 * lazy route discovery, the build itself.
 */
export function routeSubsetBuild(build, pathname) {
  // With route discovery off, <Scripts> sends the whole manifest (`assets.routes`) for client navigation: a subset
  // would leave the browser unable to reach other pages without a document request.
  if (build.routeDiscovery?.mode !== "lazy") return build;
  const matches = matchRoutes(routeTree(build.routes), pathname, build.basename);
  if (!matches?.length) throw new Error(`no route matches ${pathname}`);
  const ids = new Set(matches.map((match) => match.route.id));
  const pick = (routes) => Object.fromEntries(Object.entries(routes).filter(([id]) => ids.has(id)));
  return {
    ...build,
    routes: pick(build.routes),
    assets: { ...build.assets, routes: pick(build.assets.routes) },
  };
}
