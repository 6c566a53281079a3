// The server build's flat route manifest as the nested tree React Router's matchRoutes takes: one place for both the
// metrics' route id (route-id.mjs) and the landing's route subset (route-subset.mjs).

/** `routes`: the build's `routes` object ({ id, parentId, path, index, caseSensitive } per route). */
export function routeTree(routes) {
  const children = new Map();
  for (const route of Object.values(routes)) {
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(route);
    children.set(route.parentId, siblings);
  }
  const tree = (parentId) =>
    (children.get(parentId) ?? []).map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: route.index ? undefined : tree(route.id),
    }));
  return tree(undefined);
}
