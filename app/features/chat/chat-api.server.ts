import { randomUUID } from "node:crypto";
import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { isLiveSession, sessionUser, type SessionUser } from "~/lib/auth/session.server";
import { rateLimitIp } from "~/lib/client-ip.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { readJson } from "~/lib/request.server";
import { agentTurn, waitingForPersonText } from "~/features/agent/agent-service.server";
import {
  assigneeFirstName,
  findGuest,
  findGuestByExternalId,
  findOpenRoom,
  findRefreshToken,
  findRoom,
  consumeRefreshToken,
  insertGuest,
  insertGuestMessage,
  insertMessage,
  insertRefreshToken,
  insertRoom,
  messagesAfter,
  revokeFamily,
  transitionRoom,
  updateGuest,
  updateRoom,
  type ChatGuestRow,
  type ChatMessageRow,
  type ChatRoomRow,
} from "./chat-repository.server";
import {
  addMemberSchema,
  consentSchema,
  createGuestSchema,
  createRoomSchema,
  handoffSchema,
  refreshSchema,
  sendMessageSchema,
  updateGuestSchema,
} from "./chat-schema";
import { createDraftRelay } from "./chat-draft-relay.server";
import {
  chargeAddress,
  chargeGuestMessage,
  takeStreamSlot,
  type ChatRefusal,
} from "./chat-rate-limits.server";
import { ensureListening, type AgentDelta } from "./chat-hub.server";
import { roomFeeds } from "./chat-room-feed.server";
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
 * The guest chat platform under /api/chat/ (spec 001 §7, DESIGN decision 14). Failures answer `{detail}` with their
 * status, which the widget shows. Ownership of a guest is proven by the session (external_id = the user id) or by
 * the httpOnly browser cookie set when an anonymous guest was created; never by knowing an id.
 */
export interface ChatArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

class ChatHttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** Seconds, for a 429's Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(detail);
  }
}

/** 429 with the Spanish detail and Retry-After when a chat budget is spent (chat-rate-limits.server.ts). */
function refuseIfLimited(refusal: ChatRefusal | null) {
  if (refusal) throw new ChatHttpError(429, refusal.detail, refusal.retryAfter);
}

const NO_STORE = { "Cache-Control": "no-store" };
const GUEST_COOKIE = "chat_guest";
const HEARTBEAT_MS = 25_000;
const noop = () => {};

function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

const fail = (status: number, detail: string) => new ChatHttpError(status, detail);

async function readBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await readJson(request);
  } catch {
    throw fail(400, "The body is not JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail(400, `Invalid ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

function requireAccount(accountId: string | null | undefined) {
  if (accountId !== env().CHAT_ACCOUNT_ID) throw fail(404, "Account not found");
}

function cookieName(request: Request) {
  return new URL(request.url).protocol === "https:" ? `__Host-${GUEST_COOKIE}` : GUEST_COOKIE;
}

function browserSecret(request: Request): string | undefined {
  const name = cookieName(request);
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || undefined;
  }
  return undefined;
}

function guestCookie(request: Request, secret: string) {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${cookieName(request)}=${secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000${secure}`;
}

/** Does this request prove it owns the guest? A signed-in user's guest needs that user's session. */
async function ownsGuest(args: ChatArgs, guest: ChatGuestRow): Promise<boolean> {
  if (guest.externalId) {
    const user = await sessionUser(args);
    return user?.id === guest.externalId;
  }
  const secret = browserSecret(args.request);
  return Boolean(secret && guest.browserKeyHash && sha256(secret) === guest.browserKeyHash);
}

/** The guest, if it exists in the account and the caller owns it; else 404 (a foreign id reveals nothing). */
async function ownedGuest(args: ChatArgs, guestId: string, accountId: string): Promise<ChatGuestRow> {
  const guest = await findGuest(guestId);
  if (!guest || guest.accountId !== accountId || !(await ownsGuest(args, guest))) {
    throw fail(404, "Guest not found");
  }
  return guest;
}

export function guestDto(guest: ChatGuestRow) {
  return {
    id: guest.id,
    external_id: guest.externalId,
    first_name: guest.firstName,
    last_name: guest.lastName,
    email: guest.email,
    phone: guest.phone,
  };
}

function agentDto() {
  return { id: env().CHAT_AGENT_ID, name: "Dentista Virtual IA" };
}

export function roomUrl(roomId: string) {
  return `/chat/sala/${roomId}`;
}

export function roomDto(room: ChatRoomRow, guest: ChatGuestRow) {
  return {
    room_id: room.id,
    agent: agentDto(),
    guest: guestDto(guest),
    account_id: room.accountId,
    url: roomUrl(room.id),
    status: room.status,
    ai_consent: room.aiConsentAt
      ? { version: room.aiConsentVersion, accepted_at: room.aiConsentAt.toISOString() }
      : null,
  };
}

export function messageDto(message: ChatMessageRow) {
  return {
    seq: message.seq,
    id: message.id,
    room_id: message.roomId,
    author: message.author,
    kind: message.kind,
    content: message.content,
    created_at: message.createdAt.toISOString(),
  };
}

/** "Ana María Pérez" → ["Ana", "María"] (spec 001 §3: the first and second word of the user's name). */
function namesOf(user: SessionUser): [string, string] {
  const words = `${user.firstName} ${user.lastName}`.trim().split(/\s+/).filter(Boolean);
  return [words[0] ?? "Anonymous", words[1] ?? "Visitor"];
}

// --- guests ---------------------------------------------------------------------------------------------------

async function createGuest(args: ChatArgs) {
  refuseIfLimited(await chargeAddress(args.request, "guest"));
  const body = await readBody(args.request, createGuestSchema);
  requireAccount(body.account_id);
  const user = await sessionUser(args);
  if (body.external_id || user) {
    if (!user) throw fail(401, "Sign in to create a guest with an external_id");
    if (body.external_id && body.external_id !== user.id) {
      throw fail(403, "external_id must be the signed-in user's id");
    }
    const existing = await findGuestByExternalId(body.account_id, user.id);
    if (existing) return json(guestDto(existing));
    const [firstName, lastName] = namesOf(user);
    const guest = await insertGuest({
      accountId: body.account_id,
      externalId: user.id,
      firstName,
      lastName,
      email: user.email,
      phone: body.phone ?? null,
    });
    return json(guestDto(guest), 201);
  }
  // Anonymous: bound to this browser. A browser that already holds a secret keeps it for its new guest.
  const secret = browserSecret(args.request) ?? randomSecret();
  const guest = await insertGuest({
    accountId: body.account_id,
    browserKeyHash: sha256(secret),
    firstName: body.first_name ?? "Anonymous",
    lastName: body.last_name ?? "Visitor",
    email: body.email ?? null,
    phone: body.phone ?? null,
  });
  return json(guestDto(guest), 201, { "Set-Cookie": guestCookie(args.request, secret) });
}

async function getGuest(args: ChatArgs) {
  const url = new URL(args.request.url);
  const accountId = url.searchParams.get("account_id");
  const externalId = url.searchParams.get("external_id");
  if (!accountId || !externalId) throw fail(400, "account_id and external_id are required");
  requireAccount(accountId);
  const user = await sessionUser(args);
  // Another user's external_id answers as if it did not exist.
  if (!user || user.id !== externalId) throw fail(404, "Guest not found");
  const guest = await findGuestByExternalId(accountId, externalId);
  if (!guest) throw fail(404, "Guest not found");
  return json(guestDto(guest));
}

async function putGuest(args: ChatArgs, guestId: string) {
  const body = await readBody(args.request, updateGuestSchema);
  const accountId = body.account_id ?? env().CHAT_ACCOUNT_ID;
  requireAccount(accountId);
  await ownedGuest(args, guestId, accountId);
  const updated = await updateGuest(guestId, {
    ...(body.first_name ? { firstName: body.first_name } : {}),
    ...(body.last_name ? { lastName: body.last_name } : {}),
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.phone !== undefined ? { phone: body.phone } : {}),
  });
  if (!updated) throw fail(404, "Guest not found");
  return json(guestDto(updated));
}

// --- rooms ----------------------------------------------------------------------------------------------------

async function createRoom(args: ChatArgs) {
  const body = await readBody(args.request, createRoomSchema);
  requireAccount(body.account_id);
  if (body.agent_id !== env().CHAT_AGENT_ID) throw fail(404, "Agent not found");
  const guest = await ownedGuest(args, body.guest_id, body.account_id);
  const open = await findOpenRoom(guest.id, body.agent_id);
  if (open) return json(roomDto(open, guest));
  const room = await insertRoom({ accountId: body.account_id, guestId: guest.id, agentId: body.agent_id });
  return json(roomDto(room, guest), 201);
}

async function addMember(args: ChatArgs, roomId: string) {
  const body = await readBody(args.request, addMemberSchema);
  requireAccount(body.account_id);
  const guest = await ownedGuest(args, body.guest_id, body.account_id);
  const room = await findRoom(roomId);
  // One guest per room: only the room's own guest may (re)join it.
  if (!room || room.accountId !== body.account_id || room.guestId !== guest.id)
    throw fail(404, "Room not found");
  return json({ room_id: room.id, guest_id: guest.id, joined: true });
}

// --- tokens ---------------------------------------------------------------------------------------------------

/**
 * A signed-in guest's tokens carry the session they were issued under (`sessionId`) and die with it: sign-out,
 * a password change (other sessions revoked), expiry (issue 19). An anonymous guest's are bound to nothing but
 * their browser cookie at login, as before.
 */
async function issueTokens(guest: ChatGuestRow, sessionId: string | null, familyId: string = randomUUID()) {
  const now = Date.now();
  const refreshToken = randomSecret();
  await insertRefreshToken({
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

async function login(args: ChatArgs) {
  refuseIfLimited(await chargeAddress(args.request, "login"));
  const url = new URL(args.request.url);
  const guestId = url.searchParams.get("guest_id") ?? "";
  const accountId = url.searchParams.get("account_id");
  requireAccount(accountId);
  if (!/^[0-9a-f-]{36}$/i.test(guestId)) throw fail(400, "guest_id is required");
  const guest = await ownedGuest(args, guestId, accountId!);
  // ownedGuest proved a signed-in guest by this session (looked up once per request), so it is the one to bind.
  const sessionId = guest.externalId ? ((await sessionUser(args))?.sessionId ?? null) : null;
  return json({ ...(await issueTokens(guest, sessionId)), guest: guestDto(guest) });
}

async function refresh(args: ChatArgs) {
  refuseIfLimited(await chargeAddress(args.request, "refresh"));
  const body = await readBody(args.request, refreshSchema);
  const now = new Date();
  const row = await findRefreshToken(sha256(body.refresh_token));
  if (!row || row.revokedAt || row.expiresAt <= now) throw fail(401, "Invalid refresh token");
  const guest = await findGuest(row.guestId);
  if (!guest || !(await sessionStillHolds(guest, row.sessionId))) throw fail(401, "Invalid refresh token");
  if (row.usedAt || !(await consumeRefreshToken(row.id, now))) {
    // A used token presented again: someone holds a copy. The whole family goes.
    await revokeFamily(row.familyId, now);
    logger.warn({ guestId: row.guestId }, "chat refresh token reuse: family revoked");
    throw fail(401, "Refresh token reuse detected");
  }
  return json(await issueTokens(guest, row.sessionId, row.familyId));
}

/**
 * A signed-in guest's tokens hold while the session they were issued under does (a token of such a guest without
 * one predates the binding and holds no longer); an anonymous guest's tokens depend on no session.
 */
async function sessionStillHolds(guest: ChatGuestRow, sessionId: string | null) {
  if (!guest.externalId) return true;
  return sessionId !== null && (await isLiveSession(sessionId));
}

// --- the room (access token) -----------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The access token's claims, in this account: an HMAC checked in memory, plus — for a signed-in guest's token —
 * one look-up that its session still holds.
 */
async function bearerClaims(request: Request) {
  const header = request.headers.get("authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  const claims = token ? await verifyAccessToken(token) : null;
  if (!claims) throw fail(401, "Invalid or expired access token");
  requireAccount(claims.accountId);
  if (claims.sessionId && !(await isLiveSession(claims.sessionId))) {
    throw fail(401, "Invalid or expired access token");
  }
  return claims;
}

async function bearerGuest(request: Request) {
  const claims = await bearerClaims(request);
  const guest = await findGuest(claims.guestId);
  // A signed-in guest's token without a session was issued before tokens were bound to sessions.
  if (!guest || (guest.externalId && !claims.sessionId)) throw fail(401, "Invalid or expired access token");
  return { guest, claims };
}

async function guestRoom(request: Request, roomId: string) {
  const { guest, claims } = await bearerGuest(request);
  const room = UUID.test(roomId) ? await findRoom(roomId) : undefined;
  if (!room || room.guestId !== guest.id) throw fail(404, "Room not found");
  return { guest, room, claims };
}

/**
 * Who is in the room (its members panel): the guest, the virtual dentist and, once a person took the conversation,
 * that staff member by first name only.
 */
async function membersOf(room: ChatRoomRow, guest: ChatGuestRow) {
  const members = [
    { role: "guest", name: `${guest.firstName} ${guest.lastName}`.trim() },
    { role: "agent", name: agentDto().name },
  ];
  const staff = await assigneeFirstName(room.assignedTo);
  if (staff) members.push({ role: "staff", name: staff });
  return members;
}

async function getRoom(args: ChatArgs, roomId: string) {
  const { guest, room } = await guestRoom(args.request, roomId);
  const messages = await messagesAfter(room.id, 0);
  return json({
    ...roomDto(room, guest),
    members: await membersOf(room, guest),
    messages: messages.map(messageDto),
  });
}

/**
 * Stores a message and wakes the room's streams on every instance (the insert NOTIFYs in the same statement). The
 * process's LISTEN is up first (a settled promise after the first call), so a stream that just subscribed here
 * cannot miss the NOTIFY of a message stored while its LISTEN was still being set up.
 */
async function publish(values: Parameters<typeof insertMessage>[0]) {
  await ensureListening();
  return insertMessage(values);
}

/**
 * The hot path (DESIGN §5: one message per second per room, fan-out p99 ≤ 100 ms): the access token is checked
 * in memory, the guest's message budget is charged (one upsert), then one statement checks that the room is the token's guest's and open to messages, stores the
 * message (idempotent on the client id), moves the room's activity time and NOTIFYs the room (ADR 028).
 */
async function postMessage(args: ChatArgs, roomId: string) {
  const claims = await bearerClaims(args.request);
  if (!UUID.test(roomId)) throw fail(404, "Room not found");
  const body = await readBody(args.request, sendMessageSchema);
  refuseIfLimited(await chargeGuestMessage(claims.guestId));
  await ensureListening();
  const result = await insertGuestMessage({
    guestId: claims.guestId,
    accountId: claims.accountId,
    roomId,
    id: body.id,
    content: body.content,
  });
  if (result.kind === "no-room") throw fail(404, "Room not found");
  if (result.kind === "closed") throw fail(409, "This conversation is closed");
  if (result.kind === "needs-consent") {
    throw fail(409, "Accept the AI-assistance notice first, or ask for a person");
  }
  const { row, created, status } = result;
  if (row.roomId !== roomId) throw fail(409, "Message id already used");
  if (!created) return json({ message: messageDto(row), duplicate: true });
  if (status === "bot") await runAgent(roomId, body.content, rateLimitIp(args.request));
  return json({ message: messageDto(row) }, 201);
}

/**
 * The agent answers while the room is the bot's; a handoff it asks for moves the room to a person. With an LLM the
 * reply reaches the room's streams token by token as a transient draft (`agent-delta` events), and is then stored
 * once under the draft's id, which replaces it; a failed stream falls back to the offline answer under that id.
 */
async function runAgent(roomId: string, text: string, address: string) {
  const replyId = randomUUID();
  const draft = createDraftRelay(roomId, replyId);
  try {
    const turn = await agentTurn({ text, roomId, address, onToken: (token) => draft.push(token) });
    await draft.settle();
    await publish({ id: replyId, roomId, author: "agent", content: turn.content });
    if (turn.handoff) {
      await handOff(roomId, turn.handoff.reason, turn.handoff.summary, turn.handoff.urgent);
    }
  } finally {
    await draft.end();
  }
}

export async function handOff(roomId: string, reason: string, summary: string, urgent = false) {
  const moved = await transitionRoom(roomId, ["bot"], {
    status: "pending_human",
    handoffReason: reason,
    handoffSummary: summary,
    handoffUrgent: urgent,
    handoffAt: new Date(),
  });
  if (!moved) return false;
  await publish({ id: randomUUID(), roomId: roomId, author: "system", content: waitingForPersonText() });
  return true;
}

async function consent(args: ChatArgs, roomId: string) {
  const { guest, room } = await guestRoom(args.request, roomId);
  const body = await readBody(args.request, consentSchema);
  const updated = room.aiConsentAt
    ? room
    : await updateRoom(room.id, { aiConsentVersion: body.version, aiConsentAt: new Date() });
  return json(roomDto(updated ?? room, guest));
}

async function requestHuman(args: ChatArgs, roomId: string) {
  const { guest, room } = await guestRoom(args.request, roomId);
  const body = await readBody(args.request, handoffSchema);
  const recent = await messagesAfter(room.id, 0);
  const lastGuest = recent.filter((message) => message.author === "guest").slice(-3);
  const summary = lastGuest.length
    ? `Últimos mensajes del paciente: ${lastGuest.map((message) => `«${message.content.slice(0, 200)}»`).join(" · ")}`
    : "El paciente pidió hablar con una persona antes de escribir.";
  await handOff(room.id, body.reason || "El paciente pidió hablar con una persona", summary);
  const after = (await findRoom(room.id)) ?? room;
  return json(roomDto(after, guest));
}

/**
 * Server-Sent Events for one room: the backlog after `Last-Event-ID` first, then every new message as it is
 * stored. Each event's id is the message's `seq`, so a reconnect resumes without loss or repeats.
 */
async function events(args: ChatArgs, roomId: string) {
  const { guest, room, claims } = await guestRoom(args.request, roomId);
  const url = new URL(args.request.url);
  const lastId = Number(
    args.request.headers.get("last-event-id") ?? url.searchParams.get("last_event_id") ?? 0,
  );
  // Concurrent streams are capped per guest, room and address on this instance (ADR 032).
  const slot = takeStreamSlot(args.request, guest.id, room.id);
  if ("detail" in slot) throw new ChatHttpError(429, slot.detail, slot.retryAfter);
  try {
    return roomEventStream(
      room.id,
      Number.isSafeInteger(lastId) && lastId > 0 ? lastId : 0,
      args.request.signal,
      { includeNotes: false, onEnd: slot.release, stillAllowed: sessionCheck(claims) },
    );
  } catch (error) {
    slot.release();
    throw error;
  }
}

/** A signed-in guest's open stream ends once its session has (checked at each keep-alive). */
function sessionCheck(claims: AccessClaims) {
  const sessionId = claims.sessionId;
  return sessionId ? () => isLiveSession(sessionId) : undefined;
}

/** A row's SSE frame, encoded once however many streams of the room it goes to. */
const frames = new WeakMap<ChatMessageRow, Uint8Array>();
const encoder = new TextEncoder();

function messageFrame(row: ChatMessageRow) {
  let frame = frames.get(row);
  if (!frame) {
    frame = encoder.encode(`id: ${row.seq}\nevent: message\ndata: ${JSON.stringify(messageDto(row))}\n\n`);
    frames.set(row, frame);
  }
  return frame;
}

/**
 * A draft piece: no `id:` line, so it never moves the client's Last-Event-ID (drafts are not replayed on resume; the
 * stored reply is).
 */
const deltaFrames = new WeakMap<AgentDelta, Uint8Array>();
function deltaFrame(delta: AgentDelta) {
  let frame = deltaFrames.get(delta);
  if (!frame) {
    const data = { id: delta.id, offset: delta.offset, delta: delta.delta, done: delta.done === true };
    frame = encoder.encode(`event: agent-delta\ndata: ${JSON.stringify(data)}\n\n`);
    deltaFrames.set(delta, frame);
  }
  return frame;
}

export function roomEventStream(
  roomId: string,
  afterSeq: number,
  signal: AbortSignal,
  options: {
    includeNotes: boolean;
    /** Called once when the stream ends, however it ends (client gone, body cancelled, feed failure). */
    onEnd?: () => void;
    /** Asked at each keep-alive; false (or a failure) ends the stream. */
    stillAllowed?: () => Promise<boolean>;
  },
) {
  let leave: () => void = noop;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const state = { closed: false };
  const end = () => {
    if (state.closed) return;
    state.closed = true;
    leave();
    clearInterval(heartbeat);
    options.onEnd?.();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        if (state.closed) return;
        end();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      // A client that left before the stream started: nothing to join.
      if (signal.aborted) return close();
      controller.enqueue(encoder.encode(`retry: 2000\n\n`));
      // The room's feed reads each new message once for all of the room's streams (chat-room-feed.server.ts).
      leave = roomFeeds.join(roomId, afterSeq, options.includeNotes, {
        messages(rows) {
          if (state.closed) return;
          for (const row of rows) controller.enqueue(messageFrame(row));
        },
        status(status) {
          if (!state.closed)
            controller.enqueue(encoder.encode(`event: status\ndata: ${JSON.stringify({ status })}\n\n`));
        },
        delta(delta) {
          if (!state.closed) controller.enqueue(deltaFrame(delta));
        },
        close,
      });
      heartbeat = setInterval(() => {
        if (state.closed) return;
        controller.enqueue(encoder.encode(`: keep-alive\n\n`));
        options.stillAllowed?.().then(
          (allowed) => {
            if (!allowed) close();
          },
          () => close(),
        );
      }, HEARTBEAT_MS);
      signal.addEventListener("abort", close, { once: true });
    },
    cancel: end,
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: the compression middleware leaves the stream alone instead of buffering it.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

// --- dispatch -------------------------------------------------------------------------------------------------

type Handler = (args: ChatArgs, ...params: string[]) => Promise<Response>;

const routes: ReadonlyArray<[method: string, pattern: RegExp, handler: Handler]> = [
  ["POST", /^guest$/, createGuest],
  ["GET", /^guest$/, getGuest],
  ["POST", /^guest\/login$/, login],
  ["POST", /^guest\/token\/refresh$/, refresh],
  ["POST", /^guest\/room$/, createRoom],
  ["POST", /^guest\/room\/([^/]+)\/members$/, addMember],
  ["PUT", /^guest\/([0-9a-fA-F-]{36})$/, putGuest],
  ["GET", /^rooms\/([^/]+)$/, getRoom],
  ["GET", /^rooms\/([^/]+)\/events$/, events],
  ["POST", /^rooms\/([^/]+)\/messages$/, postMessage],
  ["POST", /^rooms\/([^/]+)\/consent$/, consent],
  ["POST", /^rooms\/([^/]+)\/handoff$/, requestHuman],
];

export async function handleChatApi(args: ChatArgs, path: string): Promise<Response> {
  const clean = path.replace(/^\/+|\/+$/g, "");
  const method = args.request.method.toUpperCase();
  let allowed = false;
  for (const [routeMethod, pattern, handler] of routes) {
    const match = pattern.exec(clean);
    if (!match) continue;
    allowed = true;
    if (routeMethod !== method) continue;
    try {
      return await handler(args, ...match.slice(1));
    } catch (error) {
      if (error instanceof ChatHttpError) {
        const retry: Record<string, string> =
          error.retryAfter === undefined ? {} : { "Retry-After": String(error.retryAfter) };
        return json({ detail: error.detail }, error.status, retry);
      }
      throw error;
    }
  }
  return allowed ? json({ detail: "Method not allowed" }, 405) : json({ detail: "Not found" }, 404);
}
