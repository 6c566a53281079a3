import { z } from "zod";
import { professionalTitles } from "~/domain/dentist-name";
import { roleNames } from "~/domain/roles";
import { requestKinds, requestStatuses } from "./admin-options";

const roleField = z.enum(roleNames, { error: "Elige un rol válido." });

/** The forms of /admin/usuarios/:userId (one `intent` per button). */
export const userActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("grant"), role: roleField }),
    z.object({ intent: z.literal("revoke"), role: roleField }),
    z.object({ intent: z.literal("deactivate") }),
    z.object({ intent: z.literal("reactivate") }),
    // A dentist's title; "" records none.
    z.object({
      intent: z.literal("title"),
      title: z.enum([...professionalTitles, ""], { error: "Elige un título válido." }),
    }),
  ],
  { error: "La acción no es válida." },
);
export type UserAction = z.output<typeof userActionSchema>;

/** The per-row form of /admin/solicitudes. */
export const requestStatusChangeSchema = z.object({
  kind: z.enum(requestKinds, { error: "El tipo de solicitud no es válido." }),
  requestId: z.uuid({ error: "La solicitud no es válida." }),
  status: z.enum(requestStatuses, { error: "Elige un estado válido." }),
});
export type RequestStatusChange = z.output<typeof requestStatusChangeSchema>;

/** `?q=&pagina=` of /admin: lenient, a bad page number is page 1. */
export const userSearchParamsSchema = z.object({
  q: z
    .string()
    .catch("")
    .default("")
    .transform((value) => value.trim().slice(0, 100)),
  pagina: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/** `?estado=` of /admin/solicitudes: anything else means "all". */
export const requestFilterSchema = z.object({
  estado: z.enum(requestStatuses).optional().catch(undefined),
});
