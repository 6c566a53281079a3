import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { signInStepUps } from "~/db/schema";
import {
  ONE_TIME_CODE_LENGTH,
  oneTimeCodeVerdict,
  SIGN_IN_CODE_MAX_ATTEMPTS,
  SIGN_IN_CODE_TTL_MS,
} from "~/domain/one-time-code";

/**
 * The sign-in step-up past the per-account failure limit (ADR 031). The browser holds a random challenge
 * in a cookie; after the right password the account's owner is e-mailed a code bound to that challenge. The code
 * proves the mailbox, the challenge proves the browser that typed the password: a code read elsewhere, or one typed
 * on another browser's screen, opens nothing. The session is created only here, by Better Auth, once both match.
 */

/** The challenge cookie, as Better Auth names its own (before our prefix). */
export const SIGN_IN_STEP_UP_COOKIE = "sign_in_step_up";
export const SIGN_IN_STEP_UP_PATH = "/sign-in/step-up";

const digest = (value: string) => createHash("sha256").update(value).digest("hex");

function codeHash(secret: string, challengeHash: string, code: string): string {
  return createHmac("sha256", secret).update(`sign-in-step-up:${challengeHash}:${code}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A fresh challenge for the browser's cookie: 256 random bits. */
export function newStepUpChallenge(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Draws the code for `userId` bound to `challenge` and stores only its hash; the account's older step-ups go (one
 * open code per account). Answers the code, for the e-mail.
 */
export async function issueSignInStepUp(
  db: Database,
  input: { secret: string; userId: string; challenge: string; now?: Date },
): Promise<string> {
  const now = input.now ?? new Date();
  const code = String(randomInt(0, 10 ** ONE_TIME_CODE_LENGTH)).padStart(ONE_TIME_CODE_LENGTH, "0");
  const challengeHash = digest(input.challenge);
  await db.transaction(async (tx) => {
    await tx.delete(signInStepUps).where(eq(signInStepUps.userId, input.userId));
    await tx.insert(signInStepUps).values({
      userId: input.userId,
      challengeHash,
      codeHash: codeHash(input.secret, challengeHash, code),
      expiresAt: new Date(now.getTime() + SIGN_IN_CODE_TTL_MS),
      createdAt: now,
    });
  });
  return code;
}

/**
 * The account whose step-up this challenge and code complete, consuming it; null otherwise (no such challenge,
 * expired, out of attempts, used, or a wrong code). The attempt is counted before the comparison, in one bounded
 * update, so parallel guesses cannot go past the limit; the code is consumed by one update, so it works once.
 */
export async function consumeSignInStepUp(
  db: Database,
  input: { secret: string; challenge: string; code: string; now?: Date },
): Promise<string | null> {
  const now = input.now ?? new Date();
  const challengeHash = digest(input.challenge);
  const [row] = await db.select().from(signInStepUps).where(eq(signInStepUps.challengeHash, challengeHash));
  if (!row || oneTimeCodeVerdict(row, now, SIGN_IN_CODE_MAX_ATTEMPTS) !== "usable") return null;
  const [counted] = await db
    .update(signInStepUps)
    .set({ attempts: sql`${signInStepUps.attempts} + 1` })
    .where(
      and(
        eq(signInStepUps.id, row.id),
        isNull(signInStepUps.consumedAt),
        lt(signInStepUps.attempts, SIGN_IN_CODE_MAX_ATTEMPTS),
        gt(signInStepUps.expiresAt, now),
      ),
    )
    .returning({ id: signInStepUps.id });
  if (!counted || !sameHash(row.codeHash, codeHash(input.secret, challengeHash, input.code))) return null;
  const [consumed] = await db
    .update(signInStepUps)
    .set({ consumedAt: now })
    .where(and(eq(signInStepUps.id, row.id), isNull(signInStepUps.consumedAt)))
    .returning({ userId: signInStepUps.userId });
  return consumed?.userId ?? null;
}

/** Deletes step-ups past their expiry (dead: nothing can complete them); returns how many went. */
export async function purgeExpiredStepUps(db: Database, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(signInStepUps)
    .where(lt(signInStepUps.expiresAt, now))
    .returning({ id: signInStepUps.id });
  return deleted.length;
}

/**
 * `auth.api.verifySignInStepUp({ body: { challenge, code } })`: the session for a completed step-up. Not reachable
 * over HTTP (auth.server.ts disables it there); the /auth action calls it with the cookie's challenge.
 */
export function signInStepUp(options: { db: Database }) {
  return {
    id: "clinica-sign-in-step-up",
    endpoints: {
      verifySignInStepUp: createAuthEndpoint(
        SIGN_IN_STEP_UP_PATH,
        {
          method: "POST",
          body: z.object({ challenge: z.string().min(1).max(100), code: z.string().max(20) }),
        },
        async (ctx) => {
          const userId = await consumeSignInStepUp(options.db, {
            secret: ctx.context.secret,
            challenge: ctx.body.challenge,
            code: ctx.body.code,
          });
          if (!userId) {
            throw APIError.from("UNAUTHORIZED", {
              code: "INVALID_STEP_UP_CODE",
              message: "Invalid or expired step-up code",
            });
          }
          const user = await ctx.context.internalAdapter.findUserById(userId);
          // The session hook refuses deactivated accounts (auth.server.ts): no session, as after a password.
          const session = user ? await ctx.context.internalAdapter.createSession(user.id, false) : null;
          if (!user || !session) {
            throw APIError.from("UNAUTHORIZED", {
              code: "FAILED_TO_CREATE_SESSION",
              message: "Failed to create session",
            });
          }
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ user: { id: user.id } });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
