import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  allowedInboxIntents,
  decideInboxAction,
  INBOX_FROM_STATUSES,
  type InboxActor,
} from "~/domain/inbox-permissions";
import { AppError } from "~/lib/errors";
import { ensureListening, subscribeAllRooms } from "./chat-hub.server";
import {
  findGuest,
  findRoom,
  inboxRoomsByStatus,
  insertMessage,
  messagesAfter,
  transitionRoom,
} from "./chat-repository.server";
import { MAX_CHAT_MESSAGE_LENGTH } from "./chat-schema";

/**
 * The staff inbox (issue 12): conversations by status, take (atomic), reply, internal notes, hand back to the agent,
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
 * How many of each status the page lists, each read on its own (issue 19, item 8): rooms nobody needs to answer
 * never push a waiting one out of view. Rooms where the guest never wrote are not listed at all.
 */
export const INBOX_SECTION_LIMITS = { pending_human: 200, open: 100, bot: 50, resolved: 50 } as const;

export async function listInbox(staffUserId: string): Promise<InboxRoomDto[]> {
  const sections = await Promise.all(
    Object.entries(INBOX_SECTION_LIMITS).map(([status, limit]) => inboxRoomsByStatus(status, limit)),
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

export async function conversation(actor: InboxActor, roomId: string) {
  const room = await findRoom(roomId);
  if (!room) throw new AppError("NOT_FOUND", "La conversación no existe.");
  const guest = await findGuest(room.guestId);
  const messages = await messagesAfter(room.id, 0, { includeNotes: true, limit: 1000 });
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
  roomId: string,
  values: { author: "staff" | "system"; kind?: "message" | "note"; content: string; staffUserId?: string },
) {
  // The insert NOTIFYs the room in the same statement (chat-repository.server.ts), once this process LISTENs.
  await ensureListening();
  await insertMessage({ id: randomUUID(), roomId, ...values });
}

const CHANGED_MEANWHILE = "La conversación cambió mientras tanto; vuelve a intentarlo.";

/**
 * The answer to the loser of a race (its update found the room changed since it decided): the decision on the
 * room as it is now, so that it hears what it would have heard had it come second (a colleague's conversation is
 * a 403, not a 409); a conflict only when that decision would now allow it.
 */
async function lostRace(actor: InboxActor, action: InboxAction, conflict: string): Promise<AppError> {
  const now = await findRoom(action.roomId);
  const decision = now ? decideInboxAction(actor, now, action.intent) : null;
  if (decision && !decision.allowed) return new AppError(decision.code, decision.message);
  return new AppError("CONFLICT", conflict);
}

export async function applyInboxAction(actor: InboxActor, action: InboxAction): Promise<string> {
  const room = await findRoom(action.roomId);
  if (!room) throw new AppError("NOT_FOUND", "La conversación no existe.");
  const decision = decideInboxAction(actor, room, action.intent);
  if (!decision.allowed) throw new AppError(decision.code, decision.message);
  switch (action.intent) {
    case "take": {
      // One statement, on the holder seen when deciding: of two staff taking at once, one gets the row.
      const taken = await transitionRoom(
        room.id,
        INBOX_FROM_STATUSES.take,
        { status: "open", assignedTo: actor.id },
        room.assignedTo,
      );
      if (!taken) throw await lostRace(actor, action, "Otra persona del equipo ya tomó esta conversación.");
      await post(room.id, { author: "system", content: "Una persona del equipo se unió a la conversación." });
      return "Conversación tomada.";
    }
    case "reply":
    case "note": {
      await post(room.id, {
        author: "staff",
        kind: action.intent === "note" ? "note" : "message",
        content: action.content,
        staffUserId: actor.id,
      });
      return action.intent === "note" ? "Nota interna guardada." : "Respuesta enviada.";
    }
    case "handback": {
      const back = await transitionRoom(
        room.id,
        INBOX_FROM_STATUSES.handback,
        { status: "bot", assignedTo: null },
        room.assignedTo,
      );
      if (!back) throw await lostRace(actor, action, CHANGED_MEANWHILE);
      await post(room.id, {
        author: "system",
        content: "El Dentista Virtual IA vuelve a atender esta conversación.",
      });
      return "Conversación devuelta al asistente.";
    }
    case "resolve": {
      const done = await transitionRoom(
        room.id,
        INBOX_FROM_STATUSES.resolve,
        { status: "resolved" },
        room.assignedTo,
      );
      if (!done) throw await lostRace(actor, action, CHANGED_MEANWHILE);
      await post(room.id, {
        author: "system",
        content: "La conversación fue marcada como resuelta. ¡Gracias!",
      });
      return "Conversación resuelta.";
    }
  }
}

const noop = () => {};

/** How often an open inbox stream re-checks its session when no event comes. */
export const INBOX_SESSION_CHECK_MS = 25_000;

/**
 * SSE for the inbox: a `changed` event whenever any room gets a message, so the page revalidates. The session is
 * checked again before each event and at each keep-alive (`sessionLive`, which must not count as activity): once it
 * is signed out, expired or idle the stream ends instead of delivering (issue 19, item 15).
 */
export function inboxEventStream(signal: AbortSignal, sessionLive: () => Promise<boolean>): Response {
  const encoder = new TextEncoder();
  let unsubscribe: () => void = noop;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stop = () => {
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = () => {
        if (closed) return;
        stop();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      // Events that arrive while a check runs share it: one session read per burst, not per room.
      let checking: Promise<boolean> | undefined;
      const live = () =>
        (checking ??= sessionLive()
          .catch(() => false)
          .finally(() => {
            checking = undefined;
          }));
      const deliver = async (chunk: string) => {
        if (closed) return;
        if (!(await live())) {
          finish();
          return;
        }
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          stop();
        }
      };
      controller.enqueue(encoder.encode("retry: 2000\n\n"));
      unsubscribe = subscribeAllRooms(
        (roomId) => void deliver(`event: changed\ndata: ${JSON.stringify({ roomId })}\n\n`),
      );
      heartbeat = setInterval(() => void deliver(": keep-alive\n\n"), INBOX_SESSION_CHECK_MS);
      signal.addEventListener("abort", () => finish(), { once: true });
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
    },
  });
}

/** Whether these roles open the inbox. */
export function hasInboxRole(roles: readonly string[]): boolean {
  return roles.some((role) => (INBOX_ROLES as readonly string[]).includes(role));
}
