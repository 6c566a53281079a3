import { hasAdminRole } from "./roles";

/**
 * Who may change a lead (ADR 034): move its status, add a note, record a contact, book it in Dentalink. Reading
 * a lead stays open to all staff. Pure.
 *
 * - An admin changes any lead.
 * - An asesor changes a lead assigned to them, or one assigned to nobody (someone has to call the person when no
 *   asesor was available). Working an unassigned lead does not assign it: giving leads out stays with the
 *   round-robin and the admins (ADR 025).
 * - Nobody else does, and an asesor never changes a colleague's lead: an admin reassigns it first.
 */

export interface LeadActor {
  id: string;
  roles: readonly string[];
}

export const LEAD_CHANGE_REFUSED =
  "Este lead está asignado a otro asesor: solo esa persona o un administrador pueden cambiarlo.";

export function canChangeLead(actor: LeadActor, assigneeId: string | null): boolean {
  if (hasAdminRole(actor.roles)) return true;
  if (!actor.roles.includes("asesor")) return false;
  return assigneeId === null || assigneeId === actor.id;
}
