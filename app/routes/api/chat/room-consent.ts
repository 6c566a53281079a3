import { getDb } from "~/db/client.server";
import { chatEndpoint, chatJson, readChatBody } from "~/features/chat/chat-http.server";
import { acceptAiNotice } from "~/features/chat/chat-room-service.server";
import { consentSchema } from "~/features/chat/chat-schema";
import { bearerRoom } from "~/features/chat/chat-token-service.server";

/** POST /api/chat/rooms/:roomId/consent (bearer): the guest accepts the AI-assistance notice (kept once). */
const endpoint = chatEndpoint({
  async POST({ request, params }) {
    const db = await getDb();
    const access = await bearerRoom(db, request, params.roomId!);
    const body = await readChatBody(request, consentSchema);
    return chatJson(await acceptAiNotice(db, access, body.version));
  },
});

export const loader = endpoint;
export const action = endpoint;
