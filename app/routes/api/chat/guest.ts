import { getDb } from "~/db/client.server";
import { createGuest, signedInGuest } from "~/features/chat/chat-guest-service.server";
import { chatEndpoint, chatJson, readChatBody } from "~/features/chat/chat-http.server";
import { chargeAddress } from "~/features/chat/chat-rate-limits.server";
import { createGuestSchema } from "~/features/chat/chat-schema";

/** POST /api/chat/guest creates a guest (signed in: the user's own, once); GET ?account_id&external_id finds the user's. */
const endpoint = chatEndpoint({
  async POST(args) {
    const db = await getDb();
    await chargeAddress(db, args.request, "guest");
    const body = await readChatBody(args.request, createGuestSchema);
    const { guest, created, setCookie } = await createGuest(db, args, body);
    return chatJson(guest, created ? 201 : 200, setCookie ? { "Set-Cookie": setCookie } : {});
  },
  async GET(args) {
    const query = new URL(args.request.url).searchParams;
    const guest = await signedInGuest(await getDb(), args, query.get("account_id"), query.get("external_id"));
    return chatJson(guest);
  },
});

export const loader = endpoint;
export const action = endpoint;
