import { Outlet } from "react-router";
import type { Route } from "./+types/patient-layout";
import { ChatLauncher } from "~/features/chat/components/chat-launcher";
import { chatWidgetConfig } from "~/features/chat/chat-widget-config.server";
import { requireUser } from "~/lib/guards.server";

/** Every /paciente page needs a session; each child checks again (its loader and action run without this one). */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return { chat: chatWidgetConfig(user.id) };
}

export default function PatientLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Outlet />
      {/* Room for the fixed chat launcher, so the end of every page scrolls clear of it (issue 24, item 7). */}
      <div aria-hidden className="floating-controls-room" />
      <ChatLauncher config={loaderData.chat} />
    </>
  );
}
