import { useCallback, useEffect, useRef, useState } from "react";
import { parseFrameMessage, type FrameMessage } from "../chat-client";

/**
 * The widget's postMessage protocol, iframe side: only the parent window, only from its origin. On mount the room
 * announces itself and asks for the guest's token; the parent answers with it, pushes refreshed ones, tells the
 * room about its mobile mode and answers token refresh requests.
 */

/** The parent's origin: the referrer's, if it is one of the allowed origins; else our own. */
function parentOriginOf(allowed: string[]): string {
  try {
    const origin = new URL(document.referrer).origin;
    if (allowed.includes(origin)) return origin;
  } catch {
    // no referrer
  }
  return window.location.origin;
}

/** How long a refresh request waits for the parent's answer. */
const REFRESH_WAIT_MS = 30_000;

/** `onRefreshFailed` must be stable (a state setter): a new one re-announces the room to the parent. */
export function useParentFrame(parentOrigins: string[], onRefreshFailed: (error: string) => void) {
  const [token, setToken] = useState<string | null>(null);
  /** The parent's mobile mode (mobile_mode_status): the panel already fills the screen. */
  const [mobile, setMobile] = useState(false);
  const parentOrigin = useRef<string>("");
  const refreshWaiter = useRef<((token: string | null) => void) | null>(null);

  const toParent = useCallback((message: FrameMessage) => {
    if (window.parent !== window && parentOrigin.current)
      window.parent.postMessage(message, parentOrigin.current);
  }, []);

  useEffect(() => {
    parentOrigin.current = parentOriginOf(parentOrigins);
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent || event.origin !== parentOrigin.current) return;
      const message = parseFrameMessage(event.data);
      if (!message) return;
      if (
        (message.type === "guest_auth_response" || message.type === "new_access_token") &&
        typeof message.access_token === "string"
      ) {
        setToken(message.access_token);
      } else if (message.type === "mobile_mode_status") {
        setMobile(message.mobile === true);
      } else if (message.type === "refresh_token") {
        const fresh =
          message.success === true && typeof message.access_token === "string" ? message.access_token : null;
        if (fresh) setToken(fresh);
        else onRefreshFailed(typeof message.error === "string" ? message.error : "Token refresh failed");
        refreshWaiter.current?.(fresh);
        refreshWaiter.current = null;
      }
    };
    window.addEventListener("message", onMessage);
    toParent({ type: "activate_interface_parenthood" });
    toParent({ type: "request_guest_auth" });
    return () => window.removeEventListener("message", onMessage);
  }, [parentOrigins, toParent, onRefreshFailed]);

  /** Asks the parent for a refreshed token (token_refresh_request): the new one, or null if refused or late. */
  const requestFreshToken = useCallback(
    () =>
      new Promise<string | null>((resolve) => {
        refreshWaiter.current = resolve;
        toParent({ type: "token_refresh_request" });
        setTimeout(() => resolve(null), REFRESH_WAIT_MS);
      }),
    [toParent],
  );

  return { token, mobile, toParent, requestFreshToken };
}
