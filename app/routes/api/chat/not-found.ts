import { chatNotFound } from "~/features/chat/chat-http.server";

/** Any other path under /api/chat/, whatever the method: the chat platform's own 404 (`{detail}`), not the site's page. */
export const loader = () => chatNotFound();
export const action = () => chatNotFound();
