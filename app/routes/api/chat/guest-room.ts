import { getDb } from "~/db/client.server";
import { chatEndpoint, chatJson, readChatBody } from "~/features/chat/chat-http.server";
import { openRoom } from "~/features/chat/chat-room-service.server";
import { createRoomSchema } from "~/features/chat/chat-schema";

/** POST /api/chat/guest/room: the guest's open room with the agent, or a new one (201). */
const endpoint = chatEndpoint({
  async POST(args) {
    const body = await readChatBody(args.request, createRoomSchema);
    const { room, created } = await openRoom(await getDb(), args, body);
    return chatJson(room, created ? 201 : 200);
  },
});

export const loader = endpoint;
export const action = endpoint;
