import { isLiveSession } from "~/lib/auth/session.server";
import { sseFrame, sseResponse } from "~/lib/sse.server";
import { messageDto } from "./chat-dto.server";
import type { AgentDelta } from "./chat-hub.server";
import type { ChatMessageRow } from "./chat-repository.server";
import { takeStreamSlot } from "./chat-rate-limits.server";
import { roomFeeds } from "./chat-room-feed.server";
import type { RoomAccess } from "./chat-room-service.server";
import type { AccessClaims } from "./chat-tokens.server";

/**
 * Server-Sent Events for one room: the backlog after `Last-Event-ID` first, then every new message as it is
 * stored. Each event's id is the message's `seq`, so a reconnect resumes without loss or repeats.
 */

const KEEP_ALIVE_MS = 25_000;

/** A row's SSE frame, encoded once however many streams of the room it goes to. */
const frames = new WeakMap<ChatMessageRow, Uint8Array>();

function messageFrame(row: ChatMessageRow) {
  let frame = frames.get(row);
  if (!frame) {
    frame = sseFrame({ id: row.seq, event: "message", data: messageDto(row) });
    frames.set(row, frame);
  }
  return frame;
}

/**
 * A draft piece: no `id:` line, so it never moves the client's Last-Event-ID (drafts are not replayed on resume; the
 * stored reply is).
 */
const deltaFrames = new WeakMap<AgentDelta, Uint8Array>();

function deltaFrame(delta: AgentDelta) {
  let frame = deltaFrames.get(delta);
  if (!frame) {
    const data = { id: delta.id, offset: delta.offset, delta: delta.delta, done: delta.done === true };
    frame = sseFrame({ event: "agent-delta", data });
    deltaFrames.set(delta, frame);
  }
  return frame;
}

/** The guest's stream of its room, from the request's Last-Event-ID (or `last_event_id`). */
export function openRoomEvents(request: Request, { guest, room }: RoomAccess, claims: AccessClaims) {
  const url = new URL(request.url);
  const lastId = Number(request.headers.get("last-event-id") ?? url.searchParams.get("last_event_id") ?? 0);
  // Concurrent streams are capped per guest, room and address on this instance (ADR 032).
  const slot = takeStreamSlot(request, guest.id, room.id);
  try {
    return roomEventStream(room.id, Number.isSafeInteger(lastId) && lastId > 0 ? lastId : 0, request, {
      includeNotes: false,
      onEnd: slot.release,
      stillAllowed: sessionCheck(claims),
    });
  } catch (error) {
    slot.release();
    throw error;
  }
}

/** A signed-in guest's open stream ends once its session has (checked at each keep-alive). */
function sessionCheck(claims: AccessClaims) {
  const sessionId = claims.sessionId;
  return sessionId ? () => isLiveSession(sessionId) : undefined;
}

export function roomEventStream(
  roomId: string,
  afterSeq: number,
  request: Request,
  options: {
    includeNotes: boolean;
    /** Called once when the stream ends, however it ends (client gone, body cancelled, feed failure). */
    onEnd?: () => void;
    /** Asked at each keep-alive; false (or a failure) ends the stream. */
    stillAllowed?: () => Promise<boolean>;
  },
) {
  return sseResponse({
    request,
    keepAliveMs: KEEP_ALIVE_MS,
    stillAllowed: options.stillAllowed,
    onEnd: options.onEnd,
    // The room's feed reads each new message once for all of the room's streams (chat-room-feed.server.ts).
    start: (sink) =>
      roomFeeds.join(roomId, afterSeq, options.includeNotes, {
        messages(rows) {
          for (const row of rows) sink.send(messageFrame(row));
        },
        status(status) {
          sink.send(sseFrame({ event: "status", data: { status } }));
        },
        delta(delta) {
          sink.send(deltaFrame(delta));
        },
        close: () => sink.close(),
      }),
  });
}
