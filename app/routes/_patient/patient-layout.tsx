import { Outlet } from "react-router";
import type { Route } from "./+types/patient-layout";
import { getDb } from "~/db/client.server";
import { ChatLauncher } from "~/features/chat/components/chat-launcher";
import { ChatLinkNotice } from "~/features/chat/components/chat-link-notice";
import { patientChatWidget } from "~/features/chat/chat-widget-config.server";
import { requireUser } from "~/lib/guards.server";

/** Every /paciente page needs a session; each child checks again (its loader and action run without this one). */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  // The widget as the address asks: `?open_mode=`, and a clinic's link `?sala=` (checked here; ADR 043).
  const { config, notice } = await patientChatWidget(await getDb(), user, new URL(args.request.url));
  return { chat: config, chatNotice: notice };
}

export default function PatientLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <ChatLinkNotice message={loaderData.chatNotice} />
      <Outlet />
      {/* Room for the fixed chat launcher, so the end of every page scrolls clear of it (issue 24, item 7). */}
      <div aria-hidden className="floating-controls-room" />
      <ChatLauncher config={loaderData.chat} />
    </>
  );
}
