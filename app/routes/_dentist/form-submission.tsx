import { data } from "react-router";
import type { Route } from "./+types/form-submission";
import { getDb } from "~/db/client.server";
import { SubmissionView } from "~/features/forms/components/submission-view";
import { readSubmissionAsStaff } from "~/features/forms/form-service.server";
import { clientIp } from "~/lib/client-ip.server";
import { isAppError } from "~/lib/base/errors";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Formulario del paciente | Río Clínica" },
  { name: "robots", content: "noindex" },
];

/**
 * GET /dentista/formularios/:submissionId — a patient's submitted form, for a dentist who has an appointment with
 * the patient, or an admin; every read is audited (ADR 041). Anyone else gets a 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ["dentista", "admin", "super_admin"]);
  try {
    const submission = await readSubmissionAsStaff(
      await getDb(),
      { id: user.id, roles: user.roles },
      args.params.submissionId,
      clientIp(args.request),
    );
    return { submission };
  } catch (error) {
    if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}

export default function FormSubmissionRoute({ loaderData }: Route.ComponentProps) {
  return <SubmissionView submission={loaderData.submission} />;
}
