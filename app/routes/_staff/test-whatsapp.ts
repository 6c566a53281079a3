import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/test-whatsapp";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import type { TestSendStatus, WhatsAppTestSendResult } from "~/features/messaging/whatsapp-log-dto";
import { testSendStatus } from "~/features/messaging/whatsapp-log-service.server";
import { whatsAppTestSendSchema } from "~/features/staff/lead-test-schema";
import { sendTestLeadWhatsApp } from "~/features/staff/lead-test-service.server";
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

/** `?ids=<uuid>,<uuid>`: the messages of one send (at most 10). */
const idsSchema = z
  .string()
  .max(400)
  .transform((value) => (value === "" ? [] : value.split(",")))
  .pipe(z.array(z.uuid()).max(10));

/**
 * The test card's status resource (staff only): the messages of a send and the API log. The card polls it while
 * sending instead of the action waiting for the provider.
 */
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, STAFF_ROLES);
  const ids = idsSchema.safeParse(new URL(args.request.url).searchParams.get("ids") ?? "");
  if (!ids.success) throw data({ message: "La consulta no es válida." }, { status: 400 });
  return data<TestSendStatus>(await testSendStatus(await getDb(), ids.data), {
    headers: { "Cache-Control": "no-store" },
  });
}

/** Queues the spec's two messages for the current test lead (staff only) and answers their ids. */
export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const parsed = whatsAppTestSendSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const sent = await sendTestLeadWhatsApp(await getDb(), parsed.data, user.id);
    return data<WhatsAppTestSendResult>(actionSuccess(sent));
  } catch (error) {
    return appErrorResult(error);
  }
}
