import { useEffect, useRef, useState } from "react";
import type { AuthTextKey } from "~/i18n/auth-messages";
import { OAUTH_ENROLMENT_REQUIRED_ERROR } from "~/lib/auth/oauth-second-factor";
import {
  acceptPopupEvent,
  POPUP_CLOSED_POLL_MS,
  POPUP_TIMEOUT_MS,
  POPUP_WINDOW_NAME,
  popupFeatures,
} from "../oauth-popup-protocol";

function popupErrorText(error: string): AuthTextKey {
  if (error === "access_denied") return "cancelled";
  if (error === OAUTH_ENROLMENT_REQUIRED_ERROR) return "googleTwoFactorEnrolment";
  return "oauthFailed";
}

interface GoogleButtonProps {
  label: string;
  startUrl: string;
  continueUrl: string;
  /** Where the code step lives when the account has two-factor (the popup says so). */
  twoFactorUrl: string;
  disabled: boolean;
  onBusyChange: (busy: boolean) => void;
  onError: (error: AuthTextKey) => void;
}

/**
 * The Google popup flow (ADR 004): a 500×600 popup; success or error arrive as a message from the popup (origin,
 * source and shape checked); a closed popup is "cancelled" after a last check of the session; 5 minutes is a
 * timeout. Without JavaScript the link simply navigates to the provider in this window.
 */
export function GoogleButton({
  label,
  startUrl,
  continueUrl,
  twoFactorUrl,
  disabled,
  onBusyChange,
  onError,
}: GoogleButtonProps) {
  const [busy, setBusy] = useState(false);
  const cleanup = useRef<() => void>(undefined);
  useEffect(() => () => cleanup.current?.(), []);

  function start(event: React.MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (busy || disabled) return;
    const popup = window.open(
      `${startUrl}${startUrl.includes("?") ? "&" : "?"}popup=1`,
      POPUP_WINDOW_NAME,
      popupFeatures(window),
    );
    if (!popup || popup.closed) {
      onError("popupBlocked");
      return;
    }
    setBusy(true);
    onBusyChange(true);
    let settled = false;

    const settle = (outcome: "success" | "two-factor" | AuthTextKey) => {
      if (settled) return;
      settled = true;
      window.removeEventListener("message", onMessage);
      clearInterval(closedPoll);
      clearTimeout(timeout);
      cleanup.current = undefined;
      if (!popup.closed) popup.close();
      if (outcome === "success" || outcome === "two-factor") {
        window.location.assign(outcome === "success" ? continueUrl : twoFactorUrl);
        return;
      }
      setBusy(false);
      onBusyChange(false);
      onError(outcome);
    };

    const onMessage = (message: MessageEvent) => {
      const accepted = acceptPopupEvent(message, window.location.origin, popup);
      if (!accepted) return;
      if (accepted.type === "oauth_success") settle("success");
      else if (accepted.type === "oauth_two_factor") settle("two-factor");
      else settle(popupErrorText(accepted.error));
    };

    // A popup closed without a message: maybe the sign-in finished anyway; ask the server once.
    const closedPoll = setInterval(() => {
      if (!popup.closed || settled) return;
      clearInterval(closedPoll);
      fetch("/auth/estado", { headers: { accept: "application/json" }, credentials: "same-origin" })
        .then(async (response) => {
          if (!response.ok) throw new Error(String(response.status));
          const state = (await response.json()) as { signedIn?: boolean };
          settle(state.signedIn ? "success" : "cancelled");
        })
        .catch(() => settle("finalCheckFailed"));
    }, POPUP_CLOSED_POLL_MS);

    const timeout = setTimeout(() => settle("timeout"), POPUP_TIMEOUT_MS);
    window.addEventListener("message", onMessage);
    cleanup.current = () => {
      window.removeEventListener("message", onMessage);
      clearInterval(closedPoll);
      clearTimeout(timeout);
    };
  }

  return (
    <a
      href={startUrl}
      onClick={start}
      aria-disabled={disabled || busy}
      className="flex w-full items-center justify-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-medium text-ink hover:bg-slate-50 aria-disabled:pointer-events-none aria-disabled:opacity-60"
    >
      <svg aria-hidden viewBox="0 0 48 48" className="size-5">
        <path
          fill="#FFC107"
          d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
        />
        <path
          fill="#FF3D00"
          d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
        />
        <path
          fill="#4CAF50"
          d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
        />
        <path
          fill="#1976D2"
          d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
        />
      </svg>
      {label}
    </a>
  );
}
