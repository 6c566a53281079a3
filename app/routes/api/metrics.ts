import { metricsResponse } from "~/features/operations/metrics-service.server";
import type { Route } from "./+types/metrics";

/** Prometheus scrape (issue 25): 404 unless the request carries METRICS_TOKEN (docs/operations.md). */
export async function loader({ request }: Route.LoaderArgs) {
  return metricsResponse(request);
}
