import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "~/lib/errors";
import { ensureListening, subscribeAllRooms } from "./chat-hub.server";
import {
  findGuest,
  findRoom,
  insertMessage,
  messagesAfter,
  roomsByStatus,
  transitionRoom,
} from "./chat-repository.server";
import { MAX_CHAT_MESSAGE_LENGTH } from "./chat-schema";

/**
 * The staff inbox (issue 12): conversations by status, take (atomic), reply, internal notes, hand back to the agent,
 * resolve. Only the person who took a conversation writes in it.
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

export async function listInbox(staffUserId: string): Promise<InboxRoomDto[]> {
  const rows = await roomsByStatus(["pending_human", "open", "bot", "resolved"]);
  return rows.map(({ room, firstName, lastName }) => ({
    id: room.id,
    status: room.status,
    guestName: `${firstName} ${lastName}`.trim(),
    handoffReason: room.handoffReason,
    handoffSummary: room.handoffSummary,
    waitingSince: room.status === "pending_human" && room.handoffAt ? room.handoffAt.toISOString() : null,
    lastMessageAt: room.lastMessageAt.toISOString(),
    assignedToMe: room.assignedTo === staffUserId,
    assigned: room.assignedTo !== null,
  }));
}

export async function conversation(roomId: string) {
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

export async function applyInboxAction(staffUserId: string, action: InboxAction): Promise<string> {
  const room = await findRoom(action.roomId);
  if (!room) throw new AppError("NOT_FOUND", "La conversación no existe.");
  switch (action.intent) {
    case "take": {
      // One statement: of two staff taking at once, one gets the row, the other a conflict.
      const taken = await transitionRoom(room.id, ["pending_human", "bot"], {
        status: "open",
        assignedTo: staffUserId,
      });
      if (!taken) throw new AppError("CONFLICT", "Otra persona del equipo ya tomó esta conversación.");
      await post(room.id, { author: "system", content: "Una persona del equipo se unió a la conversación." });
      return "Conversación tomada.";
    }
    case "reply":
    case "note": {
      if (action.intent === "reply" && (room.status !== "open" || room.assignedTo !== staffUserId)) {
        throw new AppError("CONFLICT", "Toma la conversación antes de responder.");
      }
      await post(room.id, {
        author: "staff",
        kind: action.intent === "note" ? "note" : "message",
        content: action.content,
        staffUserId,
      });
      return action.intent === "note" ? "Nota interna guardada." : "Respuesta enviada.";
    }
    case "handback": {
      const back = await transitionRoom(room.id, ["open", "pending_human"], {
        status: "bot",
        assignedTo: null,
      });
      if (!back) throw new AppError("CONFLICT", "La conversación ya no está con el equipo.");
      await post(room.id, {
        author: "system",
        content: "El Dentista Virtual IA vuelve a atender esta conversación.",
      });
      return "Conversación devuelta al asistente.";
    }
    case "resolve": {
      const done = await transitionRoom(room.id, ["bot", "pending_human", "open"], { status: "resolved" });
      if (!done) throw new AppError("CONFLICT", "La conversación ya estaba resuelta.");
      await post(room.id, {
        author: "system",
        content: "La conversación fue marcada como resuelta. ¡Gracias!",
      });
      return "Conversación resuelta.";
    }
  }
}

const noop = () => {};

/** SSE for the inbox: a `changed` event whenever any room gets a message, so the page revalidates. */
export function inboxEventStream(signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let unsubscribe: () => void = noop;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          unsubscribe();
        }
      };
      send("retry: 2000\n\n");
      unsubscribe = subscribeAllRooms((roomId) =>
        send(`event: changed\ndata: ${JSON.stringify({ roomId })}\n\n`),
      );
      heartbeat = setInterval(() => send(": keep-alive\n\n"), 25_000);
      signal.addEventListener(
        "abort",
        () => {
          unsubscribe();
          clearInterval(heartbeat);
          try {
            controller.close();
          } catch {
            // already closed
          }
        },
        { once: true },
      );
    },
    cancel() {
      unsubscribe();
      clearInterval(heartbeat);
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
    },
  });
}
