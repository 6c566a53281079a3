import type { Route } from "./+types/whatsapp-reports";
import {
  applyWhatsAppReport,
  parseWhatsAppReport,
  webhookSecretMatches,
} from "~/features/messaging/whatsapp-reports-service.server";

/**
 * The provider's delivery and seen reports (DESIGN decision 16). Server to server: no session and no Origin, so
 * the guard is the shared secret header (React Router's own origin check only refuses a mismatching Origin).
 */
export async function action({ request }: Route.ActionArgs) {
  const headers = { "Cache-Control": "no-store" };
  if (request.method !== "POST") {
    return Response.json(
      { detail: "Method not allowed" },
      { status: 405, headers: { ...headers, Allow: "POST" } },
    );
  }
  if (!webhookSecretMatches(request)) {
    return Response.json({ detail: "Missing or wrong webhook secret" }, { status: 401, headers });
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ detail: "The body is not JSON" }, { status: 400, headers });
  }
  const report = parseWhatsAppReport(body);
  if (!report) {
    return Response.json({ detail: "Not a delivery or seen report" }, { status: 400, headers });
  }
  return Response.json(await applyWhatsAppReport(report), { headers });
}
