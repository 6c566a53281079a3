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
      <p className="mt-2">
        Este chat lo responde un asistente virtual automatizado, que usa el contenido de la clínica. No
        entrega diagnósticos ni reemplaza una evaluación con tu dentista. Guardamos la conversación para
        atenderte (Ley 21.719). Puedes pedir hablar con una persona en cualquier momento.
      </p>
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
