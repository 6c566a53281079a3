import { z } from "zod";
import { leadStatuses } from "~/domain/lead-pipeline";
import { leadPanelIntents, levelFilters, statusFilters, ALL } from "./lead-panel-options";

const MAX_QUERY = 100;

/** The panel's GET filters. Unknown values fall back to "todos" instead of failing the page. */
export const leadFiltersSchema = z.object({
  q: z
    .string()
    .trim()
    .transform((value) => value.slice(0, MAX_QUERY))
    .catch(""),
  level: z.enum(levelFilters).catch(ALL),
  status: z.enum(statusFilters).catch(ALL),
});

export type LeadFilters = z.output<typeof leadFiltersSchema>;

export function parseLeadFilters(params: URLSearchParams): LeadFilters {
  return leadFiltersSchema.parse({
    q: params.get("q") ?? "",
    level: params.get("level") ?? ALL,
    status: params.get("status") ?? ALL,
  });
}

export const leadPanelActionSchema = z.object({
  intent: z.enum(leadPanelIntents, { error: "La acción solicitada no es válida." }),
  leadId: z.uuid({ error: "El lead indicado no es válido." }),
  // The status the card showed: the change applies only if nobody changed the lead since (issue 13).
  from: z.enum(leadStatuses, { error: "Recarga la página: el estado del lead no es válido." }),
});
