import { data } from "react-router";
import type { Route } from "./+types/messages";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { MessageLog } from "~/features/messaging/components/message-log";
import { messageLogPage } from "~/features/messaging/whatsapp-log-service.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Mensajes de WhatsApp | Funnel | Río Clínica" },
  { name: "robots", content: "noindex" },
];

// Staff (asesor, admin) only: the WhatsApp log holds patients' messages.
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, STAFF_ROLES);
  const { page, status } = await messageLogPage(await getDb(), new URL(args.request.url).searchParams);
  return data(page, { status });
}

export default function MessagesPage({ loaderData }: Route.ComponentProps) {
  return <MessageLog page={loaderData} />;
}
