import { getDb } from "~/db/client.server";
import { chatEndpoint, chatJson, readChatBody } from "~/features/chat/chat-http.server";
import { requestPerson } from "~/features/chat/chat-room-service.server";
import { handoffSchema } from "~/features/chat/chat-schema";
import { bearerRoom } from "~/features/chat/chat-token-service.server";

/** POST /api/chat/rooms/:roomId/handoff (bearer): the guest asks for a person; the room waits for the team. */
const endpoint = chatEndpoint({
  async POST({ request, params }) {
    const db = await getDb();
    const access = await bearerRoom(db, request, params.roomId!);
    const body = await readChatBody(request, handoffSchema);
    return chatJson(await requestPerson(db, access, body.reason ?? ""));
  },
});

export const loader = endpoint;
export const action = endpoint;
