import { createParser } from "eventsource-parser";
import type { ChatMessage, RoomStatus } from "./chat-room-state";

/**
 * The room's Server-Sent Events as the room page reads them from a `fetch` body (EventSource cannot send the
 * bearer token): stored messages, status changes, and pieces of the agent's reply while a model streams it.
 * Client-safe.
 */
export type RoomEvent =
  | { type: "message"; message: ChatMessage }
  | { type: "status"; status: RoomStatus }
  | { type: "agent-delta"; delta: { id: string; offset?: number; delta?: string; done?: boolean } };

/** Reads the stream to its end, calling `onEvent` per event; a malformed event's JSON throws (the caller reconnects). */
export async function readRoomEvents(
  body: NonNullable<Response["body"]>,
  onEvent: (event: RoomEvent) => void,
): Promise<void> {
  const parser = createParser({
    onEvent({ event = "message", data }) {
      if (!data.trim()) return;
      const parsed = JSON.parse(data) as ChatMessage & { status?: RoomStatus };
      if (event === "agent-delta") onEvent({ type: "agent-delta", delta: parsed });
      else if (event === "status") {
        if (parsed.status) onEvent({ type: "status", status: parsed.status });
      } else if (event === "message") onEvent({ type: "message", message: parsed });
    },
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}
