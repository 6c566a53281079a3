import { useState, type Dispatch, type SetStateAction } from "react";
import { chatRequest } from "../chat-client";
import type { RoomState } from "../chat-room-state";
import { AI_NOTICE_VERSION } from "../chat-schema";

type WithToken = <T>(call: (accessToken: string) => Promise<T>) => Promise<T>;

const messageOf = (failure: unknown) => (failure instanceof Error ? failure.message : "HTTP 0");

/** What the guest does in the room: send (the composer's draft or a suggestion), accept the AI notice, ask for a person. */
export function useRoomActions({
  roomId,
  withToken,
  setRoom,
  setError,
}: {
  roomId: string;
  withToken: WithToken;
  setRoom: Dispatch<SetStateAction<RoomState | null>>;
  setError: (error: string | null) => void;
}) {
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const path = `rooms/${roomId}`;

  const send = async (text: string) => {
    const content = text.trim();
    if (!content || sending) return;
    setSending(true);
    setError(null);
    try {
      await withToken((accessToken) =>
        chatRequest("", `${path}/messages`, {
          method: "POST",
          token: accessToken,
          body: { id: crypto.randomUUID(), content },
        }),
      );
      setDraft("");
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSending(false);
    }
  };

  const accept = async () => {
    try {
      const updated = await withToken((accessToken) =>
        chatRequest<RoomState>("", `${path}/consent`, {
          method: "POST",
          token: accessToken,
          body: { version: AI_NOTICE_VERSION, accepted: true },
        }),
      );
      setRoom((current) => (current ? { ...current, ai_consent: updated.ai_consent } : current));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const askPerson = async () => {
    try {
      const updated = await withToken((accessToken) =>
        chatRequest<RoomState>("", `${path}/handoff`, { method: "POST", token: accessToken, body: {} }),
      );
      setRoom((current) => (current ? { ...current, status: updated.status } : current));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return { draft, setDraft, sending, send, accept, askPerson };
}
