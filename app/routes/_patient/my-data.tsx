import type { Route } from "./+types/my-data";
import { getDb } from "~/db/client.server";
import { MyDataScreen } from "../_account/my-data-screen";
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
  return <MyDataScreen loaderData={loaderData} actionData={actionData} returnTo="/paciente/datos" />;
}
