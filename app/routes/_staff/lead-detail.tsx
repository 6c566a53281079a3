import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/lead-detail";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { LeadPage } from "~/features/crm/components/lead-page";
import type { LeadPageActionResult } from "~/features/crm/lead-page-dto";
import { leadPageActionSchema } from "~/features/crm/lead-page-schema";
import { loadLeadPage } from "~/features/crm/lead-page-service.server";
import {
  addNote,
  moveLead,
  reassignLead,
  recordContact,
  setAvailability,
} from "~/features/crm/lead-pipeline-service.server";
import { actionSuccess } from "~/lib/base/action-result";
import { clientIp } from "~/lib/client-ip.server";
import { clinicFacts } from "~/lib/base/env.server";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = ({ loaderData: page }) => [
  { title: `${page?.lead.name ?? "Lead"} | Gestión de Leads | Río Clínica` },
  { name: "robots", content: "noindex" },
];

const NOT_FOUND = "No encontramos ese lead.";
const leadIdParam = z.uuid();

function leadIdOf(params: { id?: string }): string {
  const parsed = leadIdParam.safeParse(params.id);
  if (!parsed.success) throw data({ message: NOT_FOUND }, { status: 404 });
  return parsed.data;
}

// Staff (asesor, admin) only, as the rest of /funnel; a patient or a dentist gets the /funnel refusal.
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const leadId = leadIdOf(args.params);
  try {
    return await loadLeadPage(await getDb(), leadId, user, clinicFacts().shortName);
  } catch (error) {
    throw appErrorResult(error, { notFound: "throw" });
  }
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const leadId = leadIdOf(args.params);
  const parsed = leadPageActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  const actor = { id: user.id, roles: user.roles, ip: clientIp(args.request) };
  const db = await getDb();
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "transition": {
        const outcome = await moveLead(db, {
          leadId,
          from: input.from,
          to: input.to,
          reason: input.reason,
          actor,
        });
        return data<LeadPageActionResult>(actionSuccess({ status: outcome.status }, outcome.message));
      }
      case "contact": {
        const outcome = await recordContact(db, { leadId, from: input.from, actor });
        return data<LeadPageActionResult>(actionSuccess({ status: outcome.status }, outcome.message));
      }
      case "note": {
        const outcome = await addNote(db, { leadId, text: input.text, actor });
        return data<LeadPageActionResult>(actionSuccess({}, outcome.message));
      }
      case "assign": {
        const outcome = await reassignLead(db, { leadId, assigneeId: input.assigneeId || null, actor });
        return data<LeadPageActionResult>(actionSuccess({}, outcome.message));
      }
      case "availability": {
        const outcome = await setAvailability(db, { userId: input.userId, away: input.away === "1", actor });
        return data<LeadPageActionResult>(actionSuccess({}, outcome.message));
      }
    }
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function LeadDetailRoute({ loaderData }: Route.ComponentProps) {
  return <LeadPage page={loaderData} />;
}
