import type { ReactNode } from "react";
import { cn } from "~/lib/cn";
import type { RoomState } from "../chat-room-state";
import { ChatAiNotice } from "./chat-ai-notice";
import { ChatMessageList } from "./chat-message-list";
import type { RoomPalette } from "./chat-room-theme";

/**
 * The Chat panel: connecting, the AI notice until accepted, the messages, the note while a person is to answer,
 * the last failure with a retry, and the composer while the conversation is open to the guest.
 */
export function ChatConversationPanel({
  room,
  connecting,
  historyUntil,
  drafts,
  hoursLong,
  error,
  onRetry,
  onAccept,
  onAskPerson,
  composer,
  textClass,
  palette,
}: {
  room: RoomState | null;
  /** No token yet and no failure. */
  connecting: boolean;
  /** Messages up to this seq are not shown (conversation_history=false). */
  historyUntil: number;
  drafts: Record<string, string>;
  hoursLong: string;
  error: string | null;
  onRetry: () => void;
  onAccept: () => void;
  onAskPerson: () => void;
  /** The composer, shown once the notice is settled and while the conversation is not resolved. */
  composer: ReactNode;
  textClass: string;
  palette: RoomPalette;
}) {
  const needsConsent = room?.status === "bot" && !room.ai_consent;
  const withPerson = room?.status === "pending_human" || room?.status === "open";
  return (
    <>
      {connecting && (
        <p role="status" className={cn("p-4 text-sm", palette.muted)}>
          Conectando...
        </p>
      )}

      {room && needsConsent && (
        <ChatAiNotice palette={palette} onAccept={onAccept} onAskPerson={onAskPerson} />
      )}

      {room && (
        <ChatMessageList
          messages={room.messages.filter((message) => message.seq > historyUntil)}
          drafts={Object.entries(drafts).filter(
            ([id]) => !room.messages.some((message) => message.id === id),
          )}
          busy={Object.keys(drafts).length > 0}
          scrollKey={room.messages.length}
          textClass={textClass}
          palette={palette}
        />
      )}

      {room && withPerson && (
        <p role="status" className={cn("px-4 py-2 text-xs", palette.waiting)}>
          Una persona del equipo te responderá aquí. Horario: {hoursLong}.
        </p>
      )}

      {error && (
        <div
          role="alert"
          className="flex items-center justify-between gap-2 bg-red-50 px-4 py-2 text-sm text-red-800"
        >
          <span>{error}</span>
          <button type="button" onClick={onRetry} className="font-semibold underline">
            Reintentar
          </button>
        </div>
      )}

      {room && !needsConsent && room.status !== "resolved" && composer}
    </>
  );
}
