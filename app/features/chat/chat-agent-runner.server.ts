import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { redactPersonalData } from "~/domain/personal-data-redaction";
import { agentTurn } from "~/features/agent/agent-service.server";
import { contactSubject, mayContact } from "~/features/consent/consent-service.server";
import { findGuest } from "./chat-repository.server";
import { createDraftRelay } from "./chat-draft-relay.server";
import { handOff, publishMessage } from "./chat-handoff.server";

/**
 * The agent answers while the room is the bot's; a handoff it asks for moves the room to a person. With an LLM the
 * reply reaches the room's streams token by token as a transient draft (`agent-delta` events), and is then stored
 * once under the draft's id, which replaces it; a failed stream falls back to the offline answer under that id.
 */
/**
 * What the LLM provider may read of a guest's message (ADR 037): the message as written while the person's 'chat_ia'
 * consent is in force (the notice names the automated assistant), otherwise with e-mails, RUTs, phones and the
 * guest's known names taken out. The offline agent, which never leaves the server, always reads the message itself.
 */
async function textForLlm(db: Database, guestId: string, text: string): Promise<string> {
  const guest = await findGuest(db, guestId);
  const subject = contactSubject({ userId: guest?.externalId ?? null });
  const consent = await mayContact(db, subject, "chat_ia", { chatGuestId: guestId });
  if (consent.allowed) return text;
  return redactPersonalData(text, { names: [guest?.firstName, guest?.lastName] });
}

export async function runAgent(db: Database, roomId: string, text: string, address: string, guestId: string) {
  const replyId = randomUUID();
  const draft = createDraftRelay(db, roomId, replyId);
  try {
    const llmText = await textForLlm(db, guestId, text);
    const turn = await agentTurn({ text, llmText, roomId, address, onToken: (token) => draft.push(token) });
    await draft.settle();
    await publishMessage(db, { id: replyId, roomId, author: "agent", content: turn.content });
    if (turn.handoff) {
      await handOff(db, roomId, turn.handoff.reason, turn.handoff.summary, turn.handoff.urgent);
    }
  } finally {
    await draft.end();
  }
}
