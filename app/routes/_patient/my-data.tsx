import type { Route } from "./+types/my-data";
import { getDb } from "~/db/client.server";
import { MyDataPage } from "~/features/consent/components/my-data-page";
import { ExportPanelContent } from "~/features/privacy/components/export-panel";
import { loadExportPanel } from "~/features/privacy/data-export-service.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import { loadMyData, myDataAction } from "../_account/my-data-sections.server";

export const meta: Route.MetaFunction = () => [{ title: "Mis Datos | Río Clínica" }];

/** A patient's own data (ADR 037): the session's account only, never an id from the URL or the form. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ["paciente"]);
  const db = await getDb();
  return {
    page: await loadMyData(db, user.id, "/paciente/datos"),
    exports: await loadExportPanel(db, user.id),
  };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ["paciente"]);
  return myDataAction(await getDb(), user.id, await readForm(args.request));
}

export default function PatientMyData({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <MyDataPage
      page={loaderData.page}
      result={actionData}
      exportPanel={<ExportPanelContent data={loaderData.exports} returnTo="/paciente/datos" />}
    />
  );
}
