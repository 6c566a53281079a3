import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { agentTurn } from "~/features/agent/agent-service.server";
import { createDraftRelay } from "./chat-draft-relay.server";
import { handOff, publishMessage } from "./chat-handoff.server";

/**
 * The agent answers while the room is the bot's; a handoff it asks for moves the room to a person. With an LLM the
 * reply reaches the room's streams token by token as a transient draft (`agent-delta` events), and is then stored
 * once under the draft's id, which replaces it; a failed stream falls back to the offline answer under that id.
 */
export async function runAgent(db: Database, roomId: string, text: string, address: string) {
  const replyId = randomUUID();
  const draft = createDraftRelay(db, roomId, replyId);
  try {
    const turn = await agentTurn({ text, roomId, address, onToken: (token) => draft.push(token) });
    await draft.settle();
    await publishMessage(db, { id: replyId, roomId, author: "agent", content: turn.content });
    if (turn.handoff) {
      await handOff(db, roomId, turn.handoff.reason, turn.handoff.summary, turn.handoff.urgent);
    }
  } finally {
    await draft.end();
  }
}
