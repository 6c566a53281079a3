import { useState, useSyncExternalStore } from "react";
import type { ChatWidgetConfig } from "./chat-launcher";

const noSubscription = () => () => {};

/**
 * The launcher's open state (issue 24, item 20): closed, unless the page's address asked for the chat (a clinic's
 * room link, or `open_mode`): then it opens as soon as the page is interactive (the panel never renders on the
 * server), and again when a later address asks anew (another link followed within the portal).
 */
export function useOpenAtOnce(config: ChatWidgetConfig) {
  const request = config.openAtOnce ? `${config.roomId ?? ""}|${config.openMode ?? ""}` : null;
  const [open, setOpen] = useState(request !== null);
  const [seen, setSeen] = useState(request);
  if (request !== seen) {
    setSeen(request);
    if (request !== null) setOpen(true);
  }
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return [open && hydrated, setOpen] as const;
}
