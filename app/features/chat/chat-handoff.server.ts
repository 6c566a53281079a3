import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { waitingForPersonText } from "~/features/agent/agent-service.server";
import { ensureListening } from "./chat-hub.server";
import { insertMessage, transitionRoom } from "./chat-repository.server";

/**
 * Stores a message and wakes the room's streams on every instance (the insert NOTIFYs in the same statement). The
 * process's LISTEN is up first (a settled promise after the first call), so a stream that just subscribed here
 * cannot miss the NOTIFY of a message stored while its LISTEN was still being set up.
 */
export async function publishMessage(db: Database, values: Parameters<typeof insertMessage>[1]) {
  await ensureListening();
  return insertMessage(db, values);
}

/** Moves a bot's room to a person and tells the guest so; false when the room was not the bot's. */
export async function handOff(db: Database, roomId: string, reason: string, summary: string, urgent = false) {
  const moved = await transitionRoom(db, roomId, ["bot"], {
    status: "pending_human",
    handoffReason: reason,
    handoffSummary: summary,
    handoffUrgent: urgent,
    handoffAt: new Date(),
  });
  if (!moved) return false;
  await publishMessage(db, { id: randomUUID(), roomId, author: "system", content: waitingForPersonText() });
  return true;
}
