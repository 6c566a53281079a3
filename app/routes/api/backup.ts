import type { Route } from "./+types/backup";
import { backupRequest } from "~/features/backups/backup-service.server";

/** `npm run backup` asks the running server for a backup of its embedded database (ADR 046): loopback and token only. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  return backupRequest(request);
}

/** GET and HEAD: nothing to read here. */
export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
