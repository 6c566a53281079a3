import { useEffect, useState } from "react";
import { applyDelta, chatRequest, retryAfterMs, withoutDraft, type FrameMessage } from "../chat-client";
import type { RoomState, RoomStatus } from "../chat-room-state";
import { readRoomEvents } from "../room-event-stream";

/** Pause before reconnecting a dropped stream (a 429 says how long instead). */
const RECONNECT_MS = 2000;

/**
 * The room's history, then its live stream (resuming with Last-Event-ID): messages, status changes and the agent's
 * reply while a model streams it (`drafts`, by the id it will be stored with). A new token (refresh) or `reload`
 * reconnects; the parent hears of the connection (websocket_status).
 */
export function useRoomFeed(options: {
  roomId: string;
  token: string | null;
  reload: number;
  /** false: messages up to the history at load are not shown (`historyUntil`). */
  conversationHistory: boolean;
  /** The members panel is shown: re-read the members when a person takes or leaves the conversation. */
  members: boolean;
  toParent: (message: FrameMessage) => void;
  /** Must be stable (a state setter): a new one reconnects. */
  onError: (message: string) => void;
}) {
  const { roomId, token, reload, conversationHistory, members, toParent, onError } = options;
  const [room, setRoom] = useState<RoomState | null>(null);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [connected, setConnected] = useState(false);
  /** conversation_history=false: messages up to this seq (the history at load) are not shown. */
  const [historyUntil, setHistoryUntil] = useState(0);
  const path = `rooms/${roomId}`;

  useEffect(() => {
    if (!token) return;
    const life = { stopped: false };
    const controller = new AbortController();
    void (async () => {
      let lastSeq = 0;
      let knownStatus: RoomStatus | undefined;
      try {
        const loaded = await chatRequest<RoomState>("", path, { token });
        if (life.stopped) return;
        setRoom(loaded);
        knownStatus = loaded.status;
        lastSeq = loaded.messages.at(-1)?.seq ?? 0;
        if (!conversationHistory) setHistoryUntil((current) => current || lastSeq);
      } catch (failure) {
        if (!life.stopped) onError(failure instanceof Error ? failure.message : "HTTP 0");
        return;
      }
      while (!life.stopped) {
        let pause = RECONNECT_MS;
        try {
          const response = await fetch(`/api/chat/${path}/events`, {
            headers: { Authorization: `Bearer ${token}`, "Last-Event-ID": String(lastSeq) },
            signal: controller.signal,
          });
          // The token expired or its session ended: the parent refreshes it (a new token restarts this effect) or,
          // refused, forgets the tokens and reports the failure; retrying with this token would never succeed.
          if (response.status === 401) {
            toParent({ type: "token_refresh_request" });
            return;
          }
          // Too many streams open (other tabs): wait as long as the server asks before trying again.
          if (response.status === 429) pause = retryAfterMs(response.headers.get("retry-after"), pause);
          if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
          setConnected(true);
          toParent({ type: "websocket_status", connected: true });
          await readRoomEvents(response.body, (event) => {
            if (event.type === "agent-delta") {
              setDrafts((current) => applyDelta(current, event.delta));
            } else if (event.type === "status") {
              const status = event.status;
              setRoom((current) => (current ? { ...current, status } : current));
              // A person took (or left) the conversation: the members panel shows who is in it now.
              if (status !== knownStatus && members) {
                void chatRequest<RoomState>("", path, { token }).then(
                  (fresh) =>
                    setRoom((current) => (current ? { ...current, members: fresh.members } : current)),
                  () => {},
                );
              }
              knownStatus = status;
            } else {
              const message = event.message;
              lastSeq = Math.max(lastSeq, message.seq);
              // The stored reply replaces its draft.
              setDrafts((current) => withoutDraft(current, message.id));
              setRoom((current) =>
                current && !current.messages.some((known) => known.id === message.id)
                  ? { ...current, messages: [...current.messages, message] }
                  : current,
              );
            }
          });
        } catch {
          if (life.stopped) return;
        }
        setConnected(false);
        toParent({ type: "websocket_status", connected: false });
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    })();
    return () => {
      life.stopped = true;
      controller.abort();
    };
  }, [token, path, reload, toParent, conversationHistory, members, onError]);

  return { room, setRoom, drafts, connected, historyUntil };
}
