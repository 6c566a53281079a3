import { getDb } from "~/db/client.server";
import { chatEndpoint } from "~/features/chat/chat-http.server";
import { openRoomEvents } from "~/features/chat/chat-room-stream.server";
import { bearerRoom } from "~/features/chat/chat-token-service.server";

/** GET /api/chat/rooms/:roomId/events (bearer): the room's messages as Server-Sent Events, resuming at Last-Event-ID. */
const endpoint = chatEndpoint({
  async GET({ request, params }) {
    const { claims, ...access } = await bearerRoom(await getDb(), request, params.roomId!);
    return openRoomEvents(request, access, claims);
  },
});

export const loader = endpoint;
export const action = endpoint;
