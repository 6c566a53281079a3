import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { isLiveSession, sessionUser } from "~/lib/auth/session.server";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import { guestDto } from "./chat-dto.server";
import { ownedGuest, sessionStillHolds, type RequestScope } from "./chat-guest-service.server";
import { requireChatAccount } from "./chat-http.server";
import {
  consumeRefreshToken,
  findGuest,
  findRefreshToken,
  findRoom,
  insertRefreshToken,
  revokeFamily,
  type ChatGuestRow,
} from "./chat-repository.server";
import {
  ACCESS_TOKEN_TTL_MS,
  REFRESH_TOKEN_TTL_MS,
  randomSecret,
  sha256,
  signAccessToken,
  verifyAccessToken,
  type AccessClaims,
} from "./chat-tokens.server";

/**
 * The guest's tokens: a login by a guest's owner, the rotation of refresh tokens (a reused one revokes its family)
 * and the bearer check of the room endpoints. A signed-in guest's tokens carry the session they were issued under
 * (`sessionId`) and die with it: sign-out, a password change (other sessions revoked), expiry (ADR 032). An
 * anonymous guest's are bound to nothing but their browser cookie at login.
 */

const invalidAccess = () => new AppError("UNAUTHORIZED", "Invalid or expired access token");
const invalidRefresh = () => new AppError("UNAUTHORIZED", "Invalid refresh token");

async function issueTokens(
  db: Database,
  guest: ChatGuestRow,
  sessionId: string | null,
  familyId: string = randomUUID(),
) {
  const now = Date.now();
  const refreshToken = randomSecret();
  await insertRefreshToken(db, {
    familyId,
    guestId: guest.id,
    tokenHash: sha256(refreshToken),
    sessionId,
    expiresAt: new Date(now + REFRESH_TOKEN_TTL_MS),
  });
  const expiresAt = now + ACCESS_TOKEN_TTL_MS;
  return {
    access_token: await signAccessToken({
      guestId: guest.id,
      accountId: guest.accountId,
      exp: expiresAt,
      ...(sessionId ? { sessionId } : {}),
    }),
    refresh_token: refreshToken,
    token_type: "bearer",
    expires_at: new Date(expiresAt).toISOString(),
  };
}

export async function loginGuest(
  db: Database,
  scope: RequestScope,
  guestId: string,
  accountId: string | null,
) {
  requireChatAccount(accountId);
  if (!/^[0-9a-f-]{36}$/i.test(guestId)) throw new AppError("VALIDATION", "guest_id is required");
  const guest = await ownedGuest(db, scope, guestId, accountId);
  // ownedGuest proved a signed-in guest by this session (looked up once per request), so it is the one to bind.
  const sessionId = guest.externalId ? ((await sessionUser(scope))?.sessionId ?? null) : null;
  return { ...(await issueTokens(db, guest, sessionId)), guest: guestDto(guest) };
}

export async function refreshTokens(db: Database, refreshToken: string) {
  const now = new Date();
  const row = await findRefreshToken(db, sha256(refreshToken));
  if (!row || row.revokedAt || row.expiresAt <= now) throw invalidRefresh();
  const guest = await findGuest(db, row.guestId);
  if (!guest || !(await sessionStillHolds(guest, row.sessionId))) throw invalidRefresh();
  if (row.usedAt || !(await consumeRefreshToken(db, row.id, now))) {
    // A used token presented again: someone holds a copy. The whole family goes.
    await revokeFamily(db, row.familyId, now);
    logger.warn({ guestId: row.guestId }, "chat refresh token reuse: family revoked");
    throw new AppError("UNAUTHORIZED", "Refresh token reuse detected");
  }
  return issueTokens(db, guest, row.sessionId, row.familyId);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isRoomId(roomId: string) {
  return UUID.test(roomId);
}

/**
 * The access token's claims, in this account: an HMAC checked in memory, plus — for a signed-in guest's token —
 * one look-up that its session still holds.
 */
export async function bearerClaims(request: Request): Promise<AccessClaims> {
  const header = request.headers.get("authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  const claims = token ? await verifyAccessToken(token) : null;
  if (!claims) throw invalidAccess();
  requireChatAccount(claims.accountId);
  if (claims.sessionId && !(await isLiveSession(claims.sessionId))) throw invalidAccess();
  return claims;
}

/** The bearer's guest and the room, which must be that guest's (else 404). */
export async function bearerRoom(db: Database, request: Request, roomId: string) {
  const claims = await bearerClaims(request);
  const guest = await findGuest(db, claims.guestId);
  // A signed-in guest's token without a session was issued before tokens were bound to sessions.
  if (!guest || (guest.externalId && !claims.sessionId)) throw invalidAccess();
  const room = isRoomId(roomId) ? await findRoom(db, roomId) : undefined;
  if (!room || room.guestId !== guest.id) throw new AppError("NOT_FOUND", "Room not found");
  return { guest, room, claims };
}
