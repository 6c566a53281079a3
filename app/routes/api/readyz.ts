import { readiness } from "~/features/operations/readiness-service.server";

/** Readiness (issue 25): 200 when this instance can take traffic, 503 otherwise (draining included). */
export async function loader() {
  const { ready, checks } = await readiness();
  return Response.json(
    { status: ready ? "ready" : "not_ready", checks },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
