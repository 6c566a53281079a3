import { getDb } from "~/db/client.server";
import { changeGuest } from "~/features/chat/chat-guest-service.server";
import {
  chatEndpoint,
  chatJson,
  chatNotFound,
  readChatBody,
  type ChatArgs,
} from "~/features/chat/chat-http.server";
import { updateGuestSchema } from "~/features/chat/chat-schema";

/** PUT /api/chat/guest/:guestId: the guest's owner changes its names or contact. */
const endpoint = chatEndpoint({
  async PUT(args) {
    const body = await readChatBody(args.request, updateGuestSchema);
    return chatJson(await changeGuest(await getDb(), args, args.params.guestId!, body));
  },
});

/** Only an id-shaped segment names a guest; any other is an unknown path. */
const GUEST_ID = /^[0-9a-fA-F-]{36}$/;

function guestEndpoint(args: ChatArgs) {
  return GUEST_ID.test(args.params.guestId ?? "") ? endpoint(args) : chatNotFound();
}

export const loader = guestEndpoint;
export const action = guestEndpoint;
