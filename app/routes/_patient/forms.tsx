import type { Route } from "./+types/forms";
import { getDb } from "~/db/client.server";
import { PatientFormsList } from "~/features/forms/components/patient-forms-list";
import { patientFormsPage } from "~/features/forms/form-service.server";
import { requireUser } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Mis formularios | Río Clínica" },
  { name: "robots", content: "noindex" },
];

/** GET /paciente/formularios — the session's own forms, pending and sent, per appointment (ADR 041). */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const page = await patientFormsPage(await getDb(), user.id);
  return { page, sent: new URL(args.request.url).searchParams.get("enviado") === "1" };
}

export default function FormsRoute({ loaderData }: Route.ComponentProps) {
  return <PatientFormsList page={loaderData.page} sent={loaderData.sent} />;
}
