/**
 * In-process fan-out (DESIGN decision 17): a publish carries only the room id; every listener re-reads the room's
 * log after its own cursor, so a lost or duplicated wake-up never loses or repeats a message. The PostgreSQL
 * LISTEN/NOTIFY bridge calls `wake` for rooms written by other instances.
 */
type Listener = () => void;

const listeners = new Map<string, Set<Listener>>();
/** Wakes for any room (the staff inbox). */
const anyListeners = new Set<(roomId: string) => void>();

export function subscribeRoom(roomId: string, listener: Listener): () => void {
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
  anyListeners.add(listener);
  return () => anyListeners.delete(listener);
}

export function wake(roomId: string) {
  for (const listener of listeners.get(roomId) ?? []) listener();
  for (const listener of anyListeners) listener(roomId);
}

export function subscriberCount(): number {
  let count = 0;
  for (const set of listeners.values()) count += set.size;
  return count;
}
