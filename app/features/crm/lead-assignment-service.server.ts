import type { Database } from "~/db/client.server";
import { takeNextAssignee } from "./lead-assignment-repository.server";

/**
 * The asesor a new lead (landing form, guided assistant, inbound WhatsApp) is given, chosen inside the
 * transaction that inserts it: round-robin among active asesores who are not away; null when nobody is available
 * (the lead stays unassigned). ADR 025.
 */
export function assigneeForNewLead(tx: Database): Promise<string | null> {
  return takeNextAssignee(tx);
}
