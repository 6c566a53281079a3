import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
} from "react-router";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import { AppToaster } from "~/components/app-toaster";
import { SiteShell } from "~/components/site-shell";
import { ErrorPage, ForbiddenPage, NotFoundPage } from "~/components/error-pages";
import { forgetChatTokens } from "~/features/chat/chat-token-storage";
import { htmlLang, localeCookie, resolveLocale } from "~/i18n/messages";
import { displayName, refreshedSessionCookieContext, sessionUser } from "~/lib/auth/session.server";
import { withDentalinkDeadline } from "~/integrations/dentalink/dentalink-client.server";
import { clinicFacts, env } from "~/lib/base/env.server";
import { useAppData } from "~/lib/app-data";
import { INVALID_REQUEST_MESSAGE } from "~/lib/request.server";
import { urlCarriesNul } from "~/domain/nul-character";
import { appReady, appServing } from "~/startup/app-ready.server";
import stylesheetUrl from "./app.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/media/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/media/apple-touch-icon.png" },
];

/**
 * Once per request: the app is ready (migrations, demo data), the session is looked up (anonymous requests touch no
 * database), and pages for a signed-in person are never stored by caches (they hold personal data).
 */
/**
 * Re-sends the session cookie after a sliding refresh, unless this response already sets it (a sign-out or a new
 * sign-in decides the cookie then).
 */
function keepSessionCookie(response: Response, refreshed: string | null) {
  if (!refreshed) return;
  const name = refreshed.slice(0, refreshed.indexOf("=") + 1);
  if (response.headers.getSetCookie().some((cookie) => cookie.startsWith(name))) return;
  response.headers.append("Set-Cookie", refreshed);
}

export const middleware: Route.MiddlewareFunction[] = [
  // ADR 034: a NUL character in a path parameter or a query value (`%00`) would reach a query, where PostgreSQL
  // refuses it with a 500; no route of ours takes one, so it is a 400 before any loader or action.
  ({ request }, next) => {
    if (urlCarriesNul(new URL(request.url))) throw data(INVALID_REQUEST_MESSAGE, { status: 400 });
    return next();
  },
  async (args, next) => {
    await appReady();
    // The dev server has no listen hook: its first request stands for it (server.mjs already called this).
    appServing();
    const user = await sessionUser(args);
    // One Dentalink deadline for the whole request: its lookup and the record's lists share 5 s (ADR 030).
    const response = await withDentalinkDeadline(next);
    if (user && response instanceof Response) {
      response.headers.set("Cache-Control", "no-store");
      keepSessionCookie(response, args.context.get(refreshedSessionCookieContext));
    }
    return response;
  },
];

export async function loader(args: Route.LoaderArgs) {
  const { request } = args;
  const url = new URL(request.url);
  const user = await sessionUser(args);
  const { locale, remember } = resolveLocale(url, request.headers.get("cookie"));
  const current = env();
  const body = {
    locale,
    clinic: clinicFacts(current),
    media: { baseUrl: current.MEDIA_BASE_URL, accountId: current.MEDIA_ACCOUNT_ID },
    user: user ? { name: displayName(user), emailVerified: user.emailVerified, roles: user.roles } : null,
    year: new Date().getFullYear(),
  };
  const headers = remember ? { "Set-Cookie": localeCookie(locale, url.protocol === "https:") } : undefined;
  return data(body, { headers });
}

/** The root data changes only with the language (or after a form is sent); the blog's search must not refetch it. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  return currentUrl.searchParams.get("lang") !== nextUrl.searchParams.get("lang");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { locale } = useAppData();
  return (
    <html lang={htmlLang[locale]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <Meta />
        {/* A React stylesheet resource (precedence) is flushed before the module preloads, so it is fetched first. */}
        <link rel="stylesheet" href={stylesheetUrl} precedence="default" />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { user } = useAppData();
  // A browser where nobody is signed in keeps no chat tokens: after 'Salir', or a session that ended elsewhere
  // (the server refuses them anyway, ADR 032).
  useEffect(() => {
    if (!user) forgetChatTokens();
  }, [user]);
  return (
    <>
      <SiteShell>
        <Outlet />
      </SiteShell>
      <AppToaster />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <SiteShell>
        <NotFoundPage />
      </SiteShell>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <SiteShell>
        <ForbiddenPage />
      </SiteShell>
    );
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <SiteShell>
      <ErrorPage status={status} detail={detail} />
    </SiteShell>
  );
}
