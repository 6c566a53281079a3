import { getDb } from "~/db/client.server";
import { chatEndpoint, chatJson, readChatBody } from "~/features/chat/chat-http.server";
import { chargeAddress } from "~/features/chat/chat-rate-limits.server";
import { refreshSchema } from "~/features/chat/chat-schema";
import { refreshTokens } from "~/features/chat/chat-token-service.server";

/** POST /api/chat/guest/token/refresh: a refresh token (used once) for a new pair. */
const endpoint = chatEndpoint({
  async POST(args) {
    const db = await getDb();
    await chargeAddress(db, args.request, "refresh");
    const body = await readChatBody(args.request, refreshSchema);
    return chatJson(await refreshTokens(db, body.refresh_token));
  },
});

export const loader = endpoint;
export const action = endpoint;
