import type { Route } from "./+types/dashboard";
import { requireUser } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [{ title: "Mi Portal | Río Clínica" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return { firstName: user.firstName, emailVerified: user.emailVerified };
}

export default function PatientDashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Hola, {loaderData.firstName}</h1>
    </div>
  );
}
