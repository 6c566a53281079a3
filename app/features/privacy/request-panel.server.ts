import type { Database } from "~/db/client.server";
import { actionFailure, actionSuccess, validationFailure, type ActionResult } from "~/lib/base/action-result";
import { isAppError } from "~/lib/base/errors";
import type { RequestRowDto } from "./request-dto";
import { requestReference } from "./request-messages";
import { ownRequests } from "./request-queries.server";
import { accountRequestSchema } from "./request-schemas";
import { createAccountRequest } from "./request-service.server";

/**
 * The server half of `RightsRequestPanel` (Mis Datos, /paciente/datos and /cuenta/datos): the route guards with
 * `requireUser`, then calls these with the session's user. The person is always the session's user, never an id
 * from the form.
 */

/** The form's `intent`, so the Mis Datos action can tell this form from its others. */
export const RIGHTS_REQUEST_INTENT = "solicitud-derechos";

export interface RightsRequestPanelData {
  requests: RequestRowDto[];
}

export interface RightsRequestReceipt {
  reference: string;
}

export async function loadRightsRequestPanel(
  db: Database,
  user: { id: string },
  now = new Date(),
): Promise<RightsRequestPanelData> {
  return { requests: await ownRequests(db, user.id, now) };
}

/** Validates and records the request; answers the reference or the Spanish errors (nothing stored on failure). */
export async function rightsRequestPanelAction(
  db: Database,
  user: { id: string },
  form: Record<string, string>,
  now = new Date(),
): Promise<ActionResult<RightsRequestReceipt>> {
  const parsed = accountRequestSchema.safeParse(form);
  if (!parsed.success) return validationFailure(parsed.error, "Revisa los campos marcados.");
  try {
    const { id } = await createAccountRequest(db, user, parsed.data, now);
    return actionSuccess(
      { reference: requestReference(id) },
      `Recibimos tu solicitud N.º ${requestReference(id)}. Te enviamos el acuse de recibo por e-mail.`,
    );
  } catch (error) {
    if (isAppError(error)) return actionFailure(error.code, error.message);
    throw error;
  }
}
