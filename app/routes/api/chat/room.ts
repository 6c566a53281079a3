import { getDb } from "~/db/client.server";
import { chatEndpoint, chatJson } from "~/features/chat/chat-http.server";
import { readRoom } from "~/features/chat/chat-room-service.server";
import { bearerRoom } from "~/features/chat/chat-token-service.server";

/** GET /api/chat/rooms/:roomId (bearer): the room, its members and its messages. */
const endpoint = chatEndpoint({
  async GET({ request, params }) {
    const db = await getDb();
    const access = await bearerRoom(db, request, params.roomId!);
    return chatJson(await readRoom(db, access));
  },
});

export const loader = endpoint;
export const action = endpoint;
