import type { Route } from "./+types/my-data";
import { getDb } from "~/db/client.server";
import { MyDataScreen } from "./my-data-screen";
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
  return <MyDataScreen loaderData={loaderData} actionData={actionData} returnTo="/cuenta/datos" />;
}
