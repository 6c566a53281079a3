import { sql } from "drizzle-orm";
import { listenToChannel, type Database } from "~/db/client.server";
import { logger } from "~/lib/base/logger.server";
import { CHAT_CHANNEL } from "./chat-repository.server";

/**
 * Fan-out (DESIGN decision 17): a publish carries only the room id, through PostgreSQL's NOTIFY, so every instance —
 * this one included — wakes its listeners for that room; on the embedded database the same LISTEN/NOTIFY runs
 * in-process. Every listener re-reads the room's log after its own cursor, so a lost or duplicated wake-up never
 * loses or repeats a message.
 */
const CHANNEL = CHAT_CHANNEL;

type Listener = () => void;

const listeners = new Map<string, Set<Listener>>();
/** Wakes for any room (the staff inbox). */
const anyListeners = new Set<(roomId: string) => void>();

let listening: Promise<unknown> | undefined;

/** LISTEN once per process, on the first subscriber or publish. */
export function ensureListening() {
  listening ??= listenToChannel(CHANNEL, (roomId) => wakeLocal(roomId)).catch((error: unknown) => {
    listening = undefined;
    logger.error({ err: error }, "chat LISTEN failed; this instance wakes only for its own messages");
  });
  return listening;
}

export function subscribeRoom(roomId: string, listener: Listener): () => void {
  void ensureListening();
  let set = listeners.get(roomId);
  if (!set) {
    set = new Set();
    listeners.set(roomId, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(roomId);
  };
}

export function subscribeAllRooms(listener: (roomId: string) => void): () => void {
  void ensureListening();
  anyListeners.add(listener);
  return () => anyListeners.delete(listener);
}

function wakeLocal(roomId: string) {
  for (const listener of listeners.get(roomId) ?? []) listener();
  for (const listener of anyListeners) listener(roomId);
}

export function subscriberCount(): number {
  let count = 0;
  for (const set of listeners.values()) count += set.size;
  return count;
}

// --- transient agent drafts ---------------------------------------------------------------------------------------

/**
 * The agent's reply while the model streams it: pieces of text, relayed to the room's streams on every
 * instance through their own NOTIFY channel and never stored — the finished reply is stored once as a normal
 * message with the same id, which replaces the draft. A lost piece only leaves a client's draft behind until then.
 */
export const CHAT_DELTA_CHANNEL = "chat_room_deltas";

export interface AgentDelta {
  roomId: string;
  /** The id the finished reply will be stored with. */
  id: string;
  /** Characters of the draft before this piece (a client that missed one stops growing its draft). */
  offset: number;
  delta: string;
  /** The draft is over (stored as a message, or abandoned). */
  done?: boolean;
}

type DeltaListener = (delta: AgentDelta) => void;
const deltaListeners = new Map<string, Set<DeltaListener>>();
let listeningDeltas: Promise<unknown> | undefined;

function parseDelta(payload: string): AgentDelta | undefined {
  try {
    const value = JSON.parse(payload) as Partial<AgentDelta>;
    if (
      typeof value.roomId === "string" &&
      typeof value.id === "string" &&
      typeof value.offset === "number" &&
      typeof value.delta === "string"
    ) {
      return {
        roomId: value.roomId,
        id: value.id,
        offset: value.offset,
        delta: value.delta,
        done: value.done === true,
      };
    }
  } catch {
    // not ours
  }
  return undefined;
}

function ensureListeningDeltas() {
  listeningDeltas ??= listenToChannel(CHAT_DELTA_CHANNEL, (payload) => {
    const delta = parseDelta(payload);
    if (delta) for (const listener of deltaListeners.get(delta.roomId) ?? []) listener(delta);
  }).catch((error: unknown) => {
    listeningDeltas = undefined;
    logger.error({ err: error }, "chat delta LISTEN failed");
  });
  return listeningDeltas;
}

export function subscribeRoomDeltas(roomId: string, listener: DeltaListener): () => void {
  void ensureListeningDeltas();
  let set = deltaListeners.get(roomId);
  if (!set) {
    set = new Set();
    deltaListeners.set(roomId, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) deltaListeners.delete(roomId);
  };
}

/** NOTIFY payloads are limited to 8,000 bytes: a piece is at most this many characters (4 bytes each at worst). */
const MAX_DELTA_CHARS = 1500;

export async function publishDelta(db: Database, delta: AgentDelta) {
  await ensureListeningDeltas();
  for (let start = 0; start < Math.max(delta.delta.length, 1); start += MAX_DELTA_CHARS) {
    const piece = delta.delta.slice(start, start + MAX_DELTA_CHARS);
    const last = start + MAX_DELTA_CHARS >= delta.delta.length;
    const payload = JSON.stringify({
      ...delta,
      offset: delta.offset + start,
      delta: piece,
      done: last && delta.done,
    });
    await db.execute(sql`select pg_notify(${CHAT_DELTA_CHANNEL}, ${payload})`);
  }
}
