import type { RouterContextProvider } from "react-router";
import type { Database } from "~/db/client.server";
import { isLiveSession, sessionUser, type SessionUser } from "~/lib/auth/session.server";
import { AppError } from "~/lib/base/errors";
import { env } from "~/lib/base/env.server";
import { guestDto } from "./chat-dto.server";
import { browserSecret, guestCookie } from "./chat-guest-cookie.server";
import { requireChatAccount } from "./chat-http.server";
import {
  findGuest,
  findGuestByExternalId,
  insertGuest,
  updateGuest,
  type ChatGuestRow,
} from "./chat-repository.server";
import type { createGuestSchema, updateGuestSchema } from "./chat-schema";
import { randomSecret, sha256 } from "./chat-tokens.server";
import type { z } from "zod";

/**
 * Chat guests. Ownership of a guest is proven by the session (external_id = the user id) or by the httpOnly browser
 * cookie set when an anonymous guest was created; never by knowing an id.
 */
export interface RequestScope {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

const guestNotFound = () => new AppError("NOT_FOUND", "Guest not found");

/** Does this request prove it owns the guest? A signed-in user's guest needs that user's session. */
async function ownsGuest(scope: RequestScope, guest: ChatGuestRow): Promise<boolean> {
  if (guest.externalId) {
    const user = await sessionUser(scope);
    return user?.id === guest.externalId;
  }
  const secret = browserSecret(scope.request);
  return Boolean(secret && guest.browserKeyHash && sha256(secret) === guest.browserKeyHash);
}

/** The guest, if it exists in the account and the caller owns it; else 404 (a foreign id reveals nothing). */
export async function ownedGuest(
  db: Database,
  scope: RequestScope,
  guestId: string,
  accountId: string,
): Promise<ChatGuestRow> {
  const guest = await findGuest(db, guestId);
  if (!guest || guest.accountId !== accountId || !(await ownsGuest(scope, guest))) throw guestNotFound();
  return guest;
}

/** "Ana María Pérez" → ["Ana", "María"]: the first and second word of the user's name. */
function namesOf(user: SessionUser): [string, string] {
  const words = `${user.firstName} ${user.lastName}`.trim().split(/\s+/).filter(Boolean);
  return [words[0] ?? "Anonymous", words[1] ?? "Visitor"];
}

/**
 * A signed-in user's guest (one per user: an existing one is returned, `created: false`), or an anonymous guest
 * bound to this browser by `setCookie`.
 */
export async function createGuest(
  db: Database,
  scope: RequestScope,
  body: z.infer<typeof createGuestSchema>,
): Promise<{ guest: ReturnType<typeof guestDto>; created: boolean; setCookie?: string }> {
  requireChatAccount(body.account_id);
  const user = await sessionUser(scope);
  if (body.external_id || user) {
    if (!user) throw new AppError("UNAUTHORIZED", "Sign in to create a guest with an external_id");
    if (body.external_id && body.external_id !== user.id) {
      throw new AppError("FORBIDDEN", "external_id must be the signed-in user's id");
    }
    const existing = await findGuestByExternalId(db, body.account_id, user.id);
    if (existing) return { guest: guestDto(existing), created: false };
    const [firstName, lastName] = namesOf(user);
    const guest = await insertGuest(db, {
      accountId: body.account_id,
      externalId: user.id,
      firstName,
      lastName,
      email: user.email,
      phone: body.phone ?? null,
    });
    return { guest: guestDto(guest), created: true };
  }
  // Anonymous: bound to this browser. A browser that already holds a secret keeps it for its new guest.
  const secret = browserSecret(scope.request) ?? randomSecret();
  const guest = await insertGuest(db, {
    accountId: body.account_id,
    browserKeyHash: sha256(secret),
    firstName: body.first_name ?? "Anonymous",
    lastName: body.last_name ?? "Visitor",
    email: body.email ?? null,
    phone: body.phone ?? null,
  });
  return { guest: guestDto(guest), created: true, setCookie: guestCookie(scope.request, secret) };
}

/** The signed-in user's own guest; another user's external_id answers as if it did not exist. */
export async function signedInGuest(
  db: Database,
  scope: RequestScope,
  accountId: string | null,
  externalId: string | null,
) {
  if (!accountId || !externalId) throw new AppError("VALIDATION", "account_id and external_id are required");
  requireChatAccount(accountId);
  const user = await sessionUser(scope);
  if (!user || user.id !== externalId) throw guestNotFound();
  const guest = await findGuestByExternalId(db, accountId, externalId);
  if (!guest) throw guestNotFound();
  return guestDto(guest);
}

export async function changeGuest(
  db: Database,
  scope: RequestScope,
  guestId: string,
  body: z.infer<typeof updateGuestSchema>,
) {
  const accountId = body.account_id ?? env().CHAT_ACCOUNT_ID;
  requireChatAccount(accountId);
  await ownedGuest(db, scope, guestId, accountId);
  const updated = await updateGuest(db, guestId, {
    ...(body.first_name ? { firstName: body.first_name } : {}),
    ...(body.last_name ? { lastName: body.last_name } : {}),
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.phone !== undefined ? { phone: body.phone } : {}),
  });
  if (!updated) throw guestNotFound();
  return guestDto(updated);
}

/**
 * A signed-in guest's tokens hold while the session they were issued under does (a token of such a guest without
 * one predates the binding and holds no longer); an anonymous guest's tokens depend on no session.
 */
export async function sessionStillHolds(guest: ChatGuestRow, sessionId: string | null) {
  if (!guest.externalId) return true;
  return sessionId !== null && (await isLiveSession(sessionId));
}
