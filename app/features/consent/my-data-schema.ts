import { z } from "zod";
import { consentPurposes } from "~/domain/privacy";
import type { ActionResult } from "~/lib/base/action-result";

/**
 * The forms of Mis Datos (each a plain form post, so they work without JavaScript). Ownership never comes from here:
 * a consent id only names which of the session's own consents to withdraw (another person's id is "not found").
 */
export const myDataActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("retirar"),
    consentId: z.uuid({ error: "No encontramos ese consentimiento." }),
  }),
  z.object({
    intent: z.literal("otorgar"),
    purpose: z.enum(consentPurposes, { error: "Elige un consentimiento válido." }),
  }),
  z.object({ intent: z.literal("oponerse") }),
  z.object({ intent: z.literal("retirar-oposicion") }),
]);

export type MyDataAction = z.infer<typeof myDataActionSchema>;
export type MyDataActionData = ActionResult<{ done: string }>;
