import { data, redirect } from "react-router";
import type { Route } from "./+types/google-start";
import { safeRedirectPath } from "~/domain/roles";
import { authRateRules, forwardCookies, limited } from "~/features/auth/auth-service.server";
import { getAuth } from "~/features/auth/auth-instance.server";
import { GOOGLE_PROVIDER_ID, googleSignInEnabled } from "~/lib/auth/auth.server";
import { rateLimitIp } from "~/lib/client-ip.server";

/**
 * GET /auth/google — opened in the 500×600 popup (or, without JavaScript, in the page): asks Better Auth for the
 * provider's authorization URL (state and PKCE verifier in signed cookies) and goes there. The provider returns to
 * Better Auth's callback, which lands on /auth/callback.
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (!googleSignInEnabled()) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const inPopup = url.searchParams.get("popup") === "1";
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const callback = `/auth/callback?${new URLSearchParams({
    ...(inPopup ? { popup: "1" } : {}),
    ...(redirectTo ? { redirectTo } : {}),
  })}`;
  if (await limited([{ key: `oauth:ip:${rateLimitIp(request)}`, rule: authRateRules.oauthStartPerIp }])) {
    throw redirect(`${callback}&error=rate_limited`);
  }
  const auth = await getAuth();
  const response = await auth.api.signInSocial({
    body: {
      provider: GOOGLE_PROVIDER_ID,
      callbackURL: callback,
      errorCallbackURL: callback,
      newUserCallbackURL: callback,
    },
    headers: request.headers,
    asResponse: true,
  });
  const body = (await response.json().catch(() => ({}))) as { url?: string };
  if (!response.ok || !body.url) throw redirect(`${callback}&error=oauth`);
  throw redirect(body.url, { headers: forwardCookies(response) });
}
