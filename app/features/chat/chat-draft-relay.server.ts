import type { Database } from "~/db/client.server";
import { violatesSafety } from "~/domain/agent-safety";
import { logger } from "~/lib/base/logger.server";
import { publishDelta } from "./chat-hub.server";

/**
 * Relays the agent's reply to the room while the model streams it: each token goes out as soon as it
 * arrives; tokens that arrive while the previous NOTIFY is still in flight travel together in the next one (the
 * database sets the pace, never a timer). The text so far is checked with the same safety rules as the finished
 * answer before each piece leaves: once it breaks one, nothing more is relayed and the draft is abandoned (the
 * offline agent's answer replaces it).
 */
export function createDraftRelay(db: Database, roomId: string, id: string) {
  let text = "";
  let sent = 0;
  let stopped = false;
  let started = false;
  let flushing: Promise<void> | undefined;

  async function flush() {
    // `stopped` and `text` change while a NOTIFY is awaited (push, end), hence the re-check each round.
    for (;;) {
      if (stopped || sent >= text.length) return;
      const offset = sent;
      const delta = text.slice(sent);
      sent = text.length;
      started = true;
      await publishDelta(db, { roomId, id, offset, delta });
    }
  }

  function startFlush() {
    flushing ??= flush()
      .catch((error: unknown) => {
        // The draft is a courtesy: the stored reply still arrives.
        stopped = true;
        logger.warn({ err: error, roomId }, "chat draft relay failed");
      })
      .finally(() => {
        flushing = undefined;
      });
    return flushing;
  }

  return {
    /** The model's next token. */
    push(token: string) {
      if (stopped || !token) return;
      if (violatesSafety(text + token)) {
        stopped = true;
        return;
      }
      text += token;
      void startFlush();
    },
    /** Waits until every relayed piece is out, so the stored reply follows its draft. */
    async settle() {
      await flushing;
      if (!stopped && sent < text.length) await startFlush();
    },
    /** The draft is over (its reply is stored, or the turn failed): clients drop it. */
    async end() {
      await this.settle();
      stopped = true;
      if (!started) return;
      await publishDelta(db, { roomId, id, offset: sent, delta: "", done: true }).catch((error: unknown) =>
        logger.warn({ err: error, roomId }, "chat draft end failed"),
      );
    },
  };
}
