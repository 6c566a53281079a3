import { sql } from "drizzle-orm";
import { getDb, listenToChannel } from "~/db/client.server";
import { logger } from "~/lib/logger.server";
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

/**
 * Tells every instance that the room has a new status. A new message needs no call: the repository's insert
 * NOTIFYs in the same statement.
 */
export async function wake(roomId: string) {
  await ensureListening();
  try {
    const db = await getDb();
    await db.execute(sql`select pg_notify(${CHANNEL}, ${roomId})`);
  } catch (error) {
    // The database refused the NOTIFY: at least this instance's listeners hear of it.
    logger.error({ err: error, roomId }, "chat NOTIFY failed");
    wakeLocal(roomId);
  }
}

export function subscriberCount(): number {
  let count = 0;
  for (const set of listeners.values()) count += set.size;
  return count;
}
