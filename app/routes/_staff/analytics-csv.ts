import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/analytics-csv";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { chartCsv } from "~/features/analytics/analytics-charts";
import { chartKeys } from "~/features/analytics/analytics-options";
import { loadChart, selectPeriod } from "~/features/analytics/analytics-service.server";
import { requireRole } from "~/lib/guards.server";

const chartParam = z.enum(chartKeys, { error: "Ese gráfico no existe." });

/** `/funnel/analytics.csv?chart=<key>&period=…`: one chart's data as CSV (staff only, UTF-8 with BOM). */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const params = new URL(args.request.url).searchParams;
  const chart = chartParam.safeParse(params.get("chart"));
  if (!chart.success) throw data({ message: chart.error.issues[0]?.message }, { status: 400 });
  const db = await getDb();
  const selection = await selectPeriod(db, user.id, params);
  if (selection.view.error) throw data({ message: selection.view.error }, { status: 400 });
  const { period } = selection;
  const csv = chartCsv(await loadChart(db, chart.data, period));
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="analytics-${chart.data}-${period.from}-a-${period.to}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
