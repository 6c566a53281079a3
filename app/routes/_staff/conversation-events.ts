import type { Route } from "./+types/conversation-events";
import { INBOX_ROLES, inboxEventStream } from "~/features/chat/inbox-service.server";
import { requireRole } from "~/lib/guards.server";

/** The inbox's live updates (SSE): a `changed` event per room activity; the page re-reads its loader. */
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, INBOX_ROLES);
  return inboxEventStream(args.request.signal);
}
