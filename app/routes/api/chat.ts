import type { Route } from "./+types/chat";
import { handleChatApi } from "~/features/chat/chat-api.server";

/** The guest chat platform (spec 001 §7, DESIGN decision 14): every call under /api/chat/ answers JSON or SSE. */
export function loader(args: Route.LoaderArgs) {
  return handleChatApi(args, args.params["*"] ?? "");
}

export function action(args: Route.ActionArgs) {
  return handleChatApi(args, args.params["*"] ?? "");
}
