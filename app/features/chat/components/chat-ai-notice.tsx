import { currentConsentText } from "~/domain/consent-texts";
import { cn } from "~/lib/cn";
import type { RoomPalette } from "./chat-room-theme";

/** Before the bot answers: the AI-assistance notice, accepted once, or a person instead. */
export function ChatAiNotice({
  palette,
  onAccept,
  onAskPerson,
}: {
  palette: RoomPalette;
  onAccept: () => void;
  onAskPerson: () => void;
}) {
  return (
    <section aria-labelledby="ai-notice-title" className={cn("m-4 rounded-xl p-4 text-sm", palette.notice)}>
      <h2 id="ai-notice-title" className="font-semibold">
        Aviso de asistencia con IA
      </h2>
      {/* The versioned text (app/domain/consent-texts.ts): accepting records this version in the ledger. */}
      <p className="mt-2">{currentConsentText("chat_ia").text}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          onClick={onAccept}
          className={cn("rounded-lg px-3 py-2 font-semibold", palette.strong)}
        >
          Acepto y quiero continuar
        </button>
        <button type="button" onClick={onAskPerson} className="rounded-lg px-3 py-2 font-semibold underline">
          Prefiero hablar con una persona
        </button>
      </div>
    </section>
  );
}
