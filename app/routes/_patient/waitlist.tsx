import { data } from "react-router";
import type { Route } from "./+types/waitlist";
import { getDb } from "~/db/client.server";
import { WaitlistPage } from "~/features/waitlist/components/waitlist-page";
import { waitlistActionSchema, type WaitlistActionResult } from "~/features/waitlist/waitlist-schema";
import {
  joinWaitlist,
  leaveWaitlist,
  patientWaitlistPage,
} from "~/features/waitlist/waitlist-service.server";
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Lista de espera | Río Clínica" },
  { name: "robots", content: "noindex" },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const cita = new URL(args.request.url).searchParams.get("cita");
  return patientWaitlistPage(await getDb(), user.id, cita && UUID.test(cita) ? cita : null);
}

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const parsed = waitlistActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  const db = await getDb();
  try {
    if (parsed.data.intent === "join") {
      await joinWaitlist(db, user.id, parsed.data);
      return data<WaitlistActionResult>(
        actionSuccess({ intent: "join" }, "Listo: te avisaremos si se libera una hora que te acomode."),
      );
    }
    await leaveWaitlist(db, user.id, parsed.data.entryId);
    return data<WaitlistActionResult>(
      actionSuccess({ intent: "withdraw" }, "Saliste de la lista de espera."),
    );
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function WaitlistRoute({ loaderData }: Route.ComponentProps) {
  return <WaitlistPage data={loaderData} />;
}
