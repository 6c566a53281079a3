import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { generateRandomString } from "better-auth/crypto";
import { requiresTwoFactor } from "~/domain/roles";

import {
  OAUTH_ENROLMENT_REQUIRED_ERROR,
  OAUTH_SECOND_FACTOR_STEP,
  TWO_FACTOR_COOKIE,
  TWO_FACTOR_PENDING_SECONDS,
} from "./oauth-second-factor";

interface Options {
  /** AUTH_STAFF_2FA=required: staff may not sign in without a second factor. */
  staffMustUseTwoFactor: () => boolean;
  rolesOf: (userId: string) => Promise<string[]>;
}

/** Where the callback was sending the browser (our /auth/callback page with its popup/redirectTo query). */
function callbackLocation(responseHeaders: Headers | null | undefined, baseURL: string): URL {
  return new URL(responseHeaders?.get("location") ?? "/auth/callback", baseURL);
}

/**
 * Better Auth's two-factor plugin challenges only password sign-ins; an OAuth callback creates a full session,
 * so a staff account with TOTP could be entered with its Google mailbox alone. After an OAuth callback this puts
 * the account in the same pending state the password sign-in uses (signed `two_factor` cookie + verification
 * row, no session), so the TOTP/backup-code step of /auth must pass before any session exists. Staff who must
 * use two-factor but have not enrolled are refused: enrolment needs their password.
 */
export function oauthSecondFactor(options: Options): BetterAuthPlugin {
  return {
    id: "clinica-oauth-second-factor",
    hooks: {
      after: [
        {
          matcher: (context) => context.path?.startsWith("/callback/") ?? false,
          handler: createAuthMiddleware(async (ctx) => {
            const created = ctx.context.newSession;
            if (!created) return;
            const enrolled = Boolean((created.user as { twoFactorEnabled?: boolean }).twoFactorEnabled);
            const mustUse =
              enrolled ||
              (options.staffMustUseTwoFactor() && requiresTwoFactor(await options.rolesOf(created.user.id)));
            if (!mustUse) return;

            deleteSessionCookie(ctx, true);
            await ctx.context.internalAdapter.deleteSession(created.session.token);
            ctx.context.setNewSession(null);
            const target = callbackLocation(ctx.context.responseHeaders, ctx.context.baseURL);
            if (!enrolled) {
              target.searchParams.set("error", OAUTH_ENROLMENT_REQUIRED_ERROR);
              throw ctx.redirect(target.toString());
            }

            const identifier = `2fa-${generateRandomString(20)}`;
            const expiresAt = new Date(Date.now() + TWO_FACTOR_PENDING_SECONDS * 1000);
            await ctx.context.internalAdapter.createVerificationValue({
              value: created.user.id,
              identifier,
              expiresAt,
            });
            // The plugin's attempt counter for this challenge (it refuses the challenge without it).
            await ctx.context.internalAdapter.createVerificationValue({
              value: "0",
              identifier: `2fa-attempts-${identifier}`,
              expiresAt,
            });
            const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE, {
              maxAge: TWO_FACTOR_PENDING_SECONDS,
            });
            await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
            target.searchParams.set(OAUTH_SECOND_FACTOR_STEP.param, OAUTH_SECOND_FACTOR_STEP.value);
            throw ctx.redirect(target.toString());
          }),
        },
      ],
    },
  };
}
