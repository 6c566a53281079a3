import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import {
  allowedInboxIntents,
  decideInboxAction,
  INBOX_FROM_STATUSES,
  type InboxActor,
} from "~/domain/inbox-permissions";
import { mayLinkRoom } from "~/domain/chat-room-links";
import { AppError } from "~/lib/base/errors";
import { sseFrame, sseResponse } from "~/lib/sse.server";
import { ensureListening, subscribeAllRooms } from "./chat-hub.server";
import {
  findGuest,
  findRoom,
  inboxRoomsByStatus,
  insertMessage,
  messagesAfter,
  transitionRoom,
} from "./chat-repository.server";
import { MAX_CHAT_MESSAGE_LENGTH } from "~/domain/chat-limits";

/**
 * The staff inbox: conversations by status, take (atomic), reply, internal notes, hand back to the agent,
 * resolve. Only the person who took a conversation writes in it; who may take, hand back or resolve is
 * domain/inbox-permissions.ts.
 */
export const INBOX_ROLES = ["asesor", "dentista", "admin", "super_admin"] as const;

export const inboxActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("take"), roomId: z.uuid() }),
  z.object({
    intent: z.enum(["reply", "note"]),
    roomId: z.uuid(),
    content: z.string().trim().min(1, "Escribe un mensaje.").max(MAX_CHAT_MESSAGE_LENGTH),
  }),
  z.object({ intent: z.enum(["handback", "resolve"]), roomId: z.uuid() }),
]);
export type InboxAction = z.infer<typeof inboxActionSchema>;

export interface InboxRoomDto {
  id: string;
  status: string;
  guestName: string;
  handoffReason: string | null;
  handoffSummary: string | null;
  /** The agent saw an emergency or distress: listed first among those waiting. */
  urgent: boolean;
  /** ISO instant the conversation started waiting for a person, or null. */
  waitingSince: string | null;
  lastMessageAt: string;
  assignedToMe: boolean;
  assigned: boolean;
}

export interface InboxMessageDto {
  id: string;
  author: string;
  kind: string;
  content: string;
  createdAt: string;
}

/**
 * How many of each status the page lists, each read on its own: rooms nobody needs to answer
 * never push a waiting one out of view. Rooms where the guest never wrote are not listed at all.
 */
export const INBOX_SECTION_LIMITS = { pending_human: 200, open: 100, bot: 50, resolved: 50 } as const;

export async function listInbox(db: Database, staffUserId: string): Promise<InboxRoomDto[]> {
  const sections = await Promise.all(
    Object.entries(INBOX_SECTION_LIMITS).map(([status, limit]) => inboxRoomsByStatus(db, status, limit)),
  );
  return sections.flat().map(({ room, firstName, lastName }) => ({
    id: room.id,
    status: room.status,
    guestName: `${firstName} ${lastName}`.trim(),
    handoffReason: room.handoffReason,
    handoffSummary: room.handoffSummary,
    urgent: room.status === "pending_human" && room.handoffUrgent,
    waitingSince: room.status === "pending_human" && room.handoffAt ? room.handoffAt.toISOString() : null,
    lastMessageAt: room.lastMessageAt.toISOString(),
    assignedToMe: room.assignedTo === staffUserId,
    assigned: room.assignedTo !== null,
  }));
}

export async function conversation(db: Database, actor: InboxActor, roomId: string) {
  const room = await findRoom(db, roomId);
  if (!room) throw new AppError("NOT_FOUND", "La conversación no existe.");
  const guest = await findGuest(db, room.guestId);
  const messages = await messagesAfter(db, room.id, 0, { includeNotes: true, limit: 1000 });
  return {
    id: room.id,
    status: room.status,
    guestName: guest ? `${guest.firstName} ${guest.lastName}` : "",
    handoffReason: room.handoffReason,
    handoffSummary: room.handoffSummary,
    assignedTo: room.assignedTo,
    assignedToMe: room.assignedTo === actor.id,
    /** The buttons this person may use here. */
    allowed: allowedInboxIntents(actor, room),
    /** A signed-in patient's conversation: staff may send them a link that opens it (room mode, ADR 043). */
    linkable: mayLinkRoom(guest ?? null),
    messages: messages.map((message): InboxMessageDto => ({
      id: message.id,
      author: message.author,
      kind: message.kind,
      content: message.content,
      createdAt: message.createdAt.toISOString(),
    })),
  };
}

async function post(
  db: Database,
  roomId: string,
  values: { author: "staff" | "system"; kind?: "message" | "note"; content: string; staffUserId?: string },
) {
  // The insert NOTIFYs the room in the same statement (chat-repository.server.ts), once this process LISTENs.
  await ensureListening();
  await insertMessage(db, { id: randomUUID(), roomId, ...values });
}

const CHANGED_MEANWHILE = "La conversación cambió mientras tanto; vuelve a intentarlo.";

/**
 * The answer to the loser of a race (its update found the room changed since it decided): the decision on the
 * room as it is now, so that it hears what it would have heard had it come second (a colleague's conversation is
 * a 403, not a 409); a conflict only when that decision would now allow it.
 */
async function lostRace(
  db: Database,
  actor: InboxActor,
  action: InboxAction,
  conflict: string,
): Promise<AppError> {
  const now = await findRoom(db, action.roomId);
  const decision = now ? decideInboxAction(actor, now, action.intent) : null;
  if (decision && !decision.allowed) return new AppError(decision.code, decision.message);
  return new AppError("CONFLICT", conflict);
}

export async function applyInboxAction(
  db: Database,
  actor: InboxActor,
  action: InboxAction,
): Promise<string> {
  const room = await findRoom(db, action.roomId);
  if (!room) throw new AppError("NOT_FOUND", "La conversación no existe.");
  const decision = decideInboxAction(actor, room, action.intent);
  if (!decision.allowed) throw new AppError(decision.code, decision.message);
  switch (action.intent) {
    case "take": {
      // One statement, on the holder seen when deciding: of two staff taking at once, one gets the row.
      const taken = await transitionRoom(
        db,
        room.id,
        INBOX_FROM_STATUSES.take,
        { status: "open", assignedTo: actor.id },
        room.assignedTo,
      );
      if (!taken)
        throw await lostRace(db, actor, action, "Otra persona del equipo ya tomó esta conversación.");
      await post(db, room.id, {
        author: "system",
        content: "Una persona del equipo se unió a la conversación.",
      });
      return "Conversación tomada.";
    }
    case "reply":
    case "note": {
      await post(db, room.id, {
        author: "staff",
        kind: action.intent === "note" ? "note" : "message",
        content: action.content,
        staffUserId: actor.id,
      });
      return action.intent === "note" ? "Nota interna guardada." : "Respuesta enviada.";
    }
    case "handback": {
      const back = await transitionRoom(
        db,
        room.id,
        INBOX_FROM_STATUSES.handback,
        { status: "bot", assignedTo: null },
        room.assignedTo,
      );
      if (!back) throw await lostRace(db, actor, action, CHANGED_MEANWHILE);
      await post(db, room.id, {
        author: "system",
        content: "El Dentista Virtual IA vuelve a atender esta conversación.",
      });
      return "Conversación devuelta al asistente.";
    }
    case "resolve": {
      const done = await transitionRoom(
        db,
        room.id,
        INBOX_FROM_STATUSES.resolve,
        { status: "resolved" },
        room.assignedTo,
      );
      if (!done) throw await lostRace(db, actor, action, CHANGED_MEANWHILE);
      await post(db, room.id, {
        author: "system",
        content: "La conversación fue marcada como resuelta. ¡Gracias!",
      });
      return "Conversación resuelta.";
    }
  }
}

/** How often an open inbox stream re-checks its session when no event comes. */
export const INBOX_SESSION_CHECK_MS = 25_000;

/**
 * SSE for the inbox: a `changed` event whenever any room gets a message, so the page revalidates. The session is
 * checked again before each event and at each keep-alive (`sessionLive`, which must not count as activity): once it
 * is signed out, expired or idle the stream ends instead of delivering.
 */
export function inboxEventStream(request: Request, sessionLive: () => Promise<boolean>): Response {
  // Events that arrive while a check runs share it: one session read per burst, not per room.
  let checking: Promise<boolean> | undefined;
  const live = () =>
    (checking ??= sessionLive()
      .catch(() => false)
      .finally(() => {
        checking = undefined;
      }));
  return sseResponse({
    request,
    keepAliveMs: INBOX_SESSION_CHECK_MS,
    stillAllowed: live,
    start(sink) {
      const deliver = async (frame: Uint8Array) => {
        if (sink.closed) return;
        if (!(await live())) return sink.close();
        sink.send(frame);
      };
      return subscribeAllRooms((roomId) => void deliver(sseFrame({ event: "changed", data: { roomId } })));
    },
  });
}

/** Whether these roles open the inbox. */
export function hasInboxRole(roles: readonly string[]): boolean {
  return roles.some((role) => (INBOX_ROLES as readonly string[]).includes(role));
}
