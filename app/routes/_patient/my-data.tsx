import type { Route } from "./+types/my-data";
import { getDb } from "~/db/client.server";
import { MyDataPage } from "~/features/consent/components/my-data-page";
import { RightsRequestPanel } from "~/features/privacy/components/rights-request-panel";
import { ExportPanel } from "~/features/privacy/components/export-panel";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import { loadMyData, myDataAction } from "../_account/my-data-sections.server";

export const meta: Route.MetaFunction = () => [{ title: "Mis Datos | Río Clínica" }];

/** A patient's own data (ADR 037): the session's account only, never an id from the URL or the form. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ["paciente"]);
  return loadMyData(await getDb(), user.id, "/paciente/datos", "/paciente/perfil");
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ["paciente"]);
  return myDataAction(await getDb(), user.id, await readForm(args.request));
}

export default function PatientMyData({ loaderData, actionData }: Route.ComponentProps) {
  const rights = actionData && "rights" in actionData ? actionData.rights : undefined;
  const result = actionData && !("rights" in actionData) ? actionData : undefined;
  return (
    <MyDataPage
      page={loaderData.page}
      result={result}
      exportPanel={<ExportPanel data={loaderData.exports} returnTo="/paciente/datos" />}
      rightsRequestPanel={<RightsRequestPanel requests={loaderData.rights.requests} result={rights} />}
    />
  );
}
