import { databaseStatus } from "~/db/client.server";

export async function loader() {
  const database = await databaseStatus();
  return Response.json(
    { status: database.ok ? "ok" : "degraded", database },
    { status: database.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
