import type { Route } from "./+types/my-data";
import { getDb } from "~/db/client.server";
import { MyDataPage } from "~/features/consent/components/my-data-page";
import { ExportPanelContent } from "~/features/privacy/components/export-panel";
import { loadExportPanel } from "~/features/privacy/data-export-service.server";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import { loadMyData, myDataAction } from "./my-data-sections.server";

export const meta: Route.MetaFunction = () => [{ title: "Mis Datos | Río Clínica" }];

/** Any signed-in account's own data (staff included, ADR 037): the session's account only. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const db = await getDb();
  return {
    page: await loadMyData(db, user.id, "/cuenta/datos"),
    exports: await loadExportPanel(db, user.id),
  };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  return myDataAction(await getDb(), user.id, await readForm(args.request));
}

export default function AccountMyData({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <MyDataPage
      page={loaderData.page}
      result={actionData}
      exportPanel={<ExportPanelContent data={loaderData.exports} returnTo="/cuenta/datos" />}
    />
  );
}
