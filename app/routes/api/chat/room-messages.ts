import { getDb } from "~/db/client.server";
import { AppError } from "~/lib/base/errors";
import { rateLimitIp } from "~/lib/client-ip.server";
import { chatEndpoint, chatJson, readChatBody } from "~/features/chat/chat-http.server";
import { postGuestMessage } from "~/features/chat/chat-room-service.server";
import { sendMessageSchema } from "~/features/chat/chat-schema";
import { bearerClaims, isRoomId } from "~/features/chat/chat-token-service.server";

/**
 * POST /api/chat/rooms/:roomId/messages (bearer): the guest's message (201; the same client id again answers the
 * stored one with `duplicate: true`). The token is checked in memory only: the room is checked by the insert itself.
 */
const endpoint = chatEndpoint({
  async POST({ request, params }) {
    const claims = await bearerClaims(request);
    const roomId = params.roomId!;
    if (!isRoomId(roomId)) throw new AppError("NOT_FOUND", "Room not found");
    const body = await readChatBody(request, sendMessageSchema);
    const result = await postGuestMessage(await getDb(), claims, roomId, body, rateLimitIp(request));
    return chatJson(result, "duplicate" in result ? 200 : 201);
  },
});

export const loader = endpoint;
export const action = endpoint;
