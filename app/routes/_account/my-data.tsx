import type { Route } from "./+types/my-data";
import { getDb } from "~/db/client.server";
import { MyDataPage } from "~/features/consent/components/my-data-page";
import { RightsRequestPanel } from "~/features/privacy/components/rights-request-panel";
import { ExportPanel } from "~/features/privacy/components/export-panel";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import { loadMyData, myDataAction } from "./my-data-sections.server";

export const meta: Route.MetaFunction = () => [{ title: "Mis Datos | Río Clínica" }];

/** Any signed-in account's own data (staff included, ADR 037): the session's account only. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return loadMyData(
    await getDb(),
    user.id,
    "/cuenta/datos",
    user.roles.includes("paciente") ? "/paciente/perfil" : null,
  );
}

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  return myDataAction(await getDb(), user.id, await readForm(args.request));
}

export default function AccountMyData({ loaderData, actionData }: Route.ComponentProps) {
  const rights = actionData && "rights" in actionData ? actionData.rights : undefined;
  const result = actionData && !("rights" in actionData) ? actionData : undefined;
  return (
    <MyDataPage
      page={loaderData.page}
      result={result}
      exportPanel={<ExportPanel data={loaderData.exports} returnTo="/cuenta/datos" />}
      rightsRequestPanel={<RightsRequestPanel requests={loaderData.rights.requests} result={rights} />}
    />
  );
}
