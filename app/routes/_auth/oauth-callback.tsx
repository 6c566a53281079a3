import { useEffect } from "react";
import type { Route } from "./+types/oauth-callback";
import { safeRedirectPath } from "~/domain/roles";
import type { OAuthPopupMessage } from "~/features/auth/oauth-popup-protocol";
import { authTexts } from "~/i18n/auth-messages";
import { useAppData } from "~/lib/app-data";
import { sessionUser } from "~/lib/auth/session.server";

export const meta: Route.MetaFunction = () => [
  { title: "Portal de Pacientes" },
  { name: "robots", content: "noindex" },
];

/** Where Better Auth lands after the provider (spec 000 §2: /auth/callback is the redirect target). */
export async function loader(args: Route.LoaderArgs) {
  const url = new URL(args.request.url);
  const providerError = url.searchParams.get("error");
  const user = providerError ? null : await sessionUser(args);
  const message: OAuthPopupMessage = user
    ? { type: "oauth_success" }
    : {
        type: "oauth_error",
        error: providerError === "access_denied" ? "access_denied" : (providerError ?? "no_session"),
      };
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  return {
    message,
    inPopup: url.searchParams.get("popup") === "1",
    next: user
      ? `/auth/continuar${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`
      : `/auth?error=${message.type === "oauth_error" ? encodeURIComponent(message.error) : ""}`,
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
        {message.type === "oauth_success"
          ? t.signingIn
          : message.error === "access_denied"
            ? t.cancelled
            : t.oauthFailed}
      </p>
      <noscript>
        <a href={next}>{t.continue}</a>
      </noscript>
    </main>
  );
}
