import { getDb } from "~/db/client.server";
import { chatEndpoint, chatJson } from "~/features/chat/chat-http.server";
import { chargeAddress } from "~/features/chat/chat-rate-limits.server";
import { loginGuest } from "~/features/chat/chat-token-service.server";

/** POST /api/chat/guest/login?guest_id&account_id: the guest's owner gets an access and a refresh token. */
const endpoint = chatEndpoint({
  async POST(args) {
    const db = await getDb();
    await chargeAddress(db, args.request, "login");
    const query = new URL(args.request.url).searchParams;
    return chatJson(await loginGuest(db, args, query.get("guest_id") ?? "", query.get("account_id")));
  },
});

export const loader = endpoint;
export const action = endpoint;
