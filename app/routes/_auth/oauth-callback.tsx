import { useEffect } from "react";
import type { Route } from "./+types/oauth-callback";
import { safeRedirectPath } from "~/domain/roles";
import type { OAuthPopupMessage } from "~/features/auth/oauth-popup-protocol";
import { authTexts } from "~/i18n/auth-messages";
import { useAppData } from "~/lib/app-data";
import {
  OAUTH_ENROLMENT_REQUIRED_ERROR,
  OAUTH_SECOND_FACTOR_STEP,
  TWO_FACTOR_COOKIE,
} from "~/lib/auth/oauth-second-factor";
import { authCookieValue, sessionUser } from "~/lib/auth/session.server";

export const meta: Route.MetaFunction = () => [
  { title: "Portal de Pacientes" },
  { name: "robots", content: "noindex" },
];

function outcome(args: Route.LoaderArgs, url: URL, user: unknown): OAuthPopupMessage {
  const providerError = url.searchParams.get("error");
  if (providerError) {
    return {
      type: "oauth_error",
      error: providerError === "access_denied" ? "access_denied" : providerError,
    };
  }
  if (user) return { type: "oauth_success" };
  // Google is done; the account's second factor is pending (lib/auth/oauth-second-factor.server.ts).
  const step = url.searchParams.get(OAUTH_SECOND_FACTOR_STEP.param) === OAUTH_SECOND_FACTOR_STEP.value;
  if (step && authCookieValue(args.request, TWO_FACTOR_COOKIE)) return { type: "oauth_two_factor" };
  return { type: "oauth_error", error: "no_session" };
}

/** Where Better Auth lands after the provider (/auth/callback: the redirect target the specification names). */
export async function loader(args: Route.LoaderArgs) {
  const url = new URL(args.request.url);
  const user = url.searchParams.get("error") ? null : await sessionUser(args);
  const message = outcome(args, url, user);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const back = redirectTo ? `redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return {
    message,
    inPopup: url.searchParams.get("popup") === "1",
    next:
      message.type === "oauth_success"
        ? `/auth/continuar${back ? `?${back}` : ""}`
        : message.type === "oauth_two_factor"
          ? `/auth?${OAUTH_SECOND_FACTOR_STEP.param}=${OAUTH_SECOND_FACTOR_STEP.value}${back ? `&${back}` : ""}`
          : `/auth?error=${encodeURIComponent(message.error)}`,
  };
}

export default function OAuthCallback({ loaderData }: Route.ComponentProps) {
  const { locale } = useAppData();
  const t = authTexts[locale];
  const { message, inPopup, next } = loaderData;

  useEffect(() => {
    // Tell the opener (same origin only) and close; without an opener, continue in this window.
    if (inPopup && window.opener && !window.opener.closed) {
      window.opener.postMessage(message, window.location.origin);
      window.close();
    } else {
      window.location.replace(next);
    }
  }, [inPopup, message, next]);

  return (
    <main className="flex min-h-[50vh] items-center justify-center p-6 text-center">
      <p role="status">
        {message.type !== "oauth_error"
          ? t.signingIn
          : message.error === "access_denied"
            ? t.cancelled
            : message.error === OAUTH_ENROLMENT_REQUIRED_ERROR
              ? t.googleTwoFactorEnrolment
              : t.oauthFailed}
      </p>
      <noscript>
        <a href={next}>{t.continue}</a>
      </noscript>
    </main>
  );
}
