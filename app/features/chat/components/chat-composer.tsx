import { Mic, Send } from "lucide-react";
import { MAX_CHAT_MESSAGE_LENGTH } from "~/domain/chat-limits";
import { SUGGESTED_PROMPTS } from "~/domain/agent-safety";
import { cn } from "~/lib/cn";
import type { RoomPalette } from "./chat-room-theme";

/**
 * Writing to the room: the suggested questions before the first message, the text box (Enter sends, Shift+Enter a
 * new line), dictation where the browser has it, and, while the bot answers, the way to a person.
 */
export function ChatComposer({
  draft,
  onDraft,
  onSend,
  sending,
  showSuggestions,
  dictation,
  onAskPerson,
  textClass,
  palette,
}: {
  draft: string;
  onDraft: (text: string) => void;
  onSend: (text: string) => void;
  sending: boolean;
  showSuggestions: boolean;
  /** Present when the mic button is shown. */
  dictation: { listening: boolean; toggle: () => void } | null;
  /** Present while the bot answers. */
  onAskPerson: (() => void) | null;
  textClass: string;
  palette: RoomPalette;
}) {
  return (
    <div className={cn("border-t p-3", palette.border)}>
      {showSuggestions && (
        <div className="mb-2 flex flex-wrap gap-1.5" aria-label="Preguntas sugeridas" role="group">
          {SUGGESTED_PROMPTS.map((prompt) => (
            <button
              key={prompt}
              type="button"
              disabled={sending}
              onClick={() => onSend(prompt)}
              className={cn("rounded-full px-3 py-1 text-xs", palette.chip)}
            >
              {prompt}
            </button>
          ))}
        </div>
      )}
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          onSend(draft);
        }}
      >
        <label htmlFor="chat-room-input" className="sr-only">
          Escribe tu mensaje
        </label>
        <textarea
          id="chat-room-input"
          rows={1}
          value={draft}
          maxLength={MAX_CHAT_MESSAGE_LENGTH}
          onChange={(event) => onDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              onSend(draft);
            }
          }}
          placeholder="Escribe tu mensaje..."
          className={cn("min-h-10 flex-1 resize-none rounded-xl border px-3 py-2", textClass, palette.input)}
        />
        {dictation && (
          <button
            type="button"
            aria-label={dictation.listening ? "Detener dictado" : "Dictar mensaje"}
            aria-pressed={dictation.listening}
            data-testid="chat-voice"
            onClick={dictation.toggle}
            className={cn("flex size-10 items-center justify-center rounded-xl", palette.chip)}
          >
            <Mic aria-hidden className={cn("size-4", dictation.listening && "text-red-600")} />
          </button>
        )}
        <button
          type="submit"
          disabled={sending || !draft.trim()}
          aria-label="Enviar mensaje"
          className={cn(
            "flex size-10 items-center justify-center rounded-xl disabled:opacity-50",
            palette.strong,
          )}
        >
          <Send aria-hidden className="size-4" />
        </button>
      </form>
      {onAskPerson && (
        <button
          type="button"
          onClick={onAskPerson}
          className={cn("mt-2 text-xs font-semibold underline", palette.muted)}
        >
          Hablar con una persona
        </button>
      )}
    </div>
  );
}
