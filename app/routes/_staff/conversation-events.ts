import { data } from "react-router";
import type { Route } from "./+types/conversation-events";
import { hasInboxRole, INBOX_ROLES, inboxEventStream } from "~/features/chat/inbox-service.server";
import { recheckSessionUser, sessionUser } from "~/lib/auth/session.server";
import { requireRole } from "~/lib/guards.server";

/**
 * The inbox's live updates (SSE): a `changed` event per room activity; the page re-reads its loader. Signed out, the
 * answer is 401, not the sign-in redirect: the browser's EventSource would follow it and keep reconnecting.
 */
export async function loader(args: Route.LoaderArgs) {
  if (!(await sessionUser(args))) {
    throw data({ message: "Tu sesión terminó. Vuelve a iniciar sesión." }, { status: 401 });
  }
  await requireRole(args, INBOX_ROLES);
  const request = args.request;
  return inboxEventStream(request, async () => {
    const user = await recheckSessionUser(request);
    return user !== null && hasInboxRole(user.roles);
  });
}
