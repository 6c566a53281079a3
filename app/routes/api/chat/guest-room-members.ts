import { getDb } from "~/db/client.server";
import { chatEndpoint, chatJson, readChatBody } from "~/features/chat/chat-http.server";
import { joinRoom } from "~/features/chat/chat-room-service.server";
import { addMemberSchema } from "~/features/chat/chat-schema";

/** POST /api/chat/guest/room/:roomId/members: the room's own guest (re)joins it. */
const endpoint = chatEndpoint({
  async POST(args) {
    const body = await readChatBody(args.request, addMemberSchema);
    return chatJson(await joinRoom(await getDb(), args, args.params.roomId!, body));
  },
});

export const loader = endpoint;
export const action = endpoint;
