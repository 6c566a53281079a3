import { hasAdminRole } from "./roles";

/**
 * Who may do what with a conversation in the staff inbox (ADR 033). Pure; the server enforces it and the
 * page shows only the buttons it allows.
 *
 * - Take: anyone in the inbox may take a conversation nobody holds; taking one a colleague holds is an admin's
 *   take-over.
 * - Reply: only the person holding it (an admin takes it over first, so the patient knows who writes).
 * - Internal note: anyone in the inbox (notes are how colleagues help each other).
 * - Hand back to the assistant, resolve: the person holding it, or an admin. Nobody holds a waiting or bot
 *   conversation, so those two are an admin's there; an asesor takes it first.
 */
export type InboxIntent = "take" | "reply" | "note" | "handback" | "resolve";
export type InboxRoomStatus = "bot" | "pending_human" | "open" | "resolved";

export interface InboxActor {
  id: string;
  roles: readonly string[];
}

export interface InboxRoomState {
  status: string;
  assignedTo: string | null;
}

export type InboxDecision =
  { allowed: true } | { allowed: false; code: "FORBIDDEN" | "CONFLICT"; message: string };

const ALLOWED: InboxDecision = { allowed: true };
const forbidden = (message: string): InboxDecision => ({ allowed: false, code: "FORBIDDEN", message });
const conflict = (message: string): InboxDecision => ({ allowed: false, code: "CONFLICT", message });

/** Statuses each intent moves a conversation from. */
export const INBOX_FROM_STATUSES: Record<
  Exclude<InboxIntent, "reply" | "note">,
  readonly InboxRoomStatus[]
> = {
  take: ["pending_human", "bot", "open"],
  handback: ["open", "pending_human"],
  resolve: ["bot", "pending_human", "open"],
};

function isAdmin(actor: InboxActor): boolean {
  return hasAdminRole(actor.roles);
}

export function decideInboxAction(
  actor: InboxActor,
  room: InboxRoomState,
  intent: InboxIntent,
): InboxDecision {
  const holder = room.assignedTo === actor.id || isAdmin(actor);
  switch (intent) {
    case "note":
      return ALLOWED;
    case "reply":
      return room.status === "open" && room.assignedTo === actor.id
        ? ALLOWED
        : conflict("Toma la conversación antes de responder.");
    case "take":
      if (!INBOX_FROM_STATUSES.take.includes(room.status as InboxRoomStatus))
        return conflict("La conversación ya estaba resuelta.");
      if (room.assignedTo === actor.id) return conflict("Ya atiendes esta conversación.");
      if (room.assignedTo === null || isAdmin(actor)) return ALLOWED;
      return forbidden(
        "Otra persona del equipo atiende esta conversación; solo un administrador puede tomarla.",
      );
    case "handback":
      if (!INBOX_FROM_STATUSES.handback.includes(room.status as InboxRoomStatus))
        return conflict("La conversación ya no está con el equipo.");
      return holder
        ? ALLOWED
        : forbidden("Solo quien atiende la conversación o un administrador puede devolverla al asistente.");
    case "resolve":
      if (!INBOX_FROM_STATUSES.resolve.includes(room.status as InboxRoomStatus))
        return conflict("La conversación ya estaba resuelta.");
      return holder
        ? ALLOWED
        : forbidden("Solo quien atiende la conversación o un administrador puede marcarla resuelta.");
  }
}

/** The buttons the page shows this person for this conversation. */
export function allowedInboxIntents(actor: InboxActor, room: InboxRoomState) {
  const can = (intent: InboxIntent) => decideInboxAction(actor, room, intent).allowed;
  return { take: can("take"), reply: can("reply"), handback: can("handback"), resolve: can("resolve") };
}
