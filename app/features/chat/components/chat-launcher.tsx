import { MessageCircle } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { ChatOpenMode } from "~/domain/chat-widget-modes";
import { useTypedBeforeHydration } from "~/lib/typed-before-hydration";
import { useOpenAtOnce } from "./use-open-at-once";
import { useScrollHide } from "./use-scroll-hide";

/** What the widget needs to find the platform and the guest (from the layout's loader). */
export interface ChatWidgetConfig {
  accountId: string;
  agentId: string;
  /** Empty = this server (DESIGN decision 14). */
  baseUrl: string;
  /** The signed-in user's id: the guest's external_id. */
  externalId: string;
  /** Room mode (a clinic's link, checked on the server; issue 24, item 20) or agent mode (the default). */
  chatMode?: "agent" | "room";
  roomId?: string | null;
  /** How the panel opens (spec open_mode); a floating widget unless said. */
  openMode?: ChatOpenMode | null;
  /** Open the panel as soon as the page is ready (a room link or an open_mode in the address). */
  openAtOnce?: boolean;
}

/** Text typed in the compact bar before the panel opened (issue 24, item 4). */
export interface HandedDraft {
  text: string;
  /** Enter (or the send button) opened the panel: the room sends it once the conversation is open to the guest. */
  send: boolean;
}

// The panel (guest flow, iframe, protocol) is a separate chunk, fetched on the first open (DESIGN §5).
const ChatWidgetPanel = lazy(() => import("./chat-widget-panel"));

/** Compact mode: a collapsed input bar that opens the panel on click, on Enter or the open button. */
export function ChatLauncher({ config }: { config: ChatWidgetConfig }) {
  const [open, setOpen] = useOpenAtOnce(config);
  const [draft, setDraft] = useState("");
  // What the bar held when the panel opened: carried into the room's composer, and sent if Enter opened it.
  const [handover, setHandover] = useState<HandedDraft | null>(null);
  const openWith = (send: boolean) => {
    const text = draft.trim();
    setHandover(text ? { text, send } : null);
    setDraft("");
    setOpen(true);
  };
  const bar = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(bar, draft, setDraft);
  const wasOpen = useRef(false);
  // The bar hides while the page scrolls, back 600 ms after (issue 24, item 20).
  const scrollHide = useScrollHide(!open);

  useEffect(() => {
    if (!open && wasOpen.current) bar.current?.focus();
    wasOpen.current = open;
  }, [open]);

  return (
    <div className="chat-widget">
      {open ? (
        <Suspense
          fallback={
            <div
              role="status"
              className="fixed bottom-5 right-5 z-50 rounded-xl bg-white px-4 py-3 text-sm shadow-lg"
            >
              Cargando chat...
            </div>
          }
        >
          <ChatWidgetPanel
            config={config}
            mode="compact"
            draft={handover}
            onClose={() => {
              setHandover(null);
              setOpen(false);
            }}
          />
        </Suspense>
      ) : (
        <form
          role="search"
          aria-label="Dentista Virtual IA"
          // On a phone the bar is only its round button (issue 24, item 7): a 350 px bar would cover the bottom of
          // every page. The page keeps room below its content for it (`floating-controls` in app.css).
          data-floating-control="chat-launcher"
          className="fixed bottom-5 right-5 z-50 flex items-center gap-2 rounded-full bg-slate-950/90 p-2 shadow-xl backdrop-blur sm:w-[350px] sm:max-w-[calc(100vw-40px)] sm:rounded-2xl"
          {...scrollHide}
          onSubmit={(event) => {
            event.preventDefault();
            openWith(true);
          }}
        >
          <label htmlFor="chat-launcher-input" className="sr-only">
            Escribe tu consulta al Dentista Virtual IA
          </label>
          <input
            ref={bar}
            id="chat-launcher-input"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onClick={() => openWith(false)}
            placeholder="Pregúntale al Dentista Virtual IA..."
            className="hidden min-w-0 flex-1 rounded-xl bg-white/10 px-3 py-2 text-sm text-white placeholder:text-slate-300 sm:block"
          />
          <button
            type="submit"
            aria-label="Abrir chat con el Dentista Virtual IA"
            className="flex size-10 shrink-0 items-center justify-center rounded-full bg-[#DC2626] text-white hover:bg-red-700 sm:size-9 sm:rounded-xl"
          >
            <MessageCircle aria-hidden className="size-5" />
          </button>
        </form>
      )}
    </div>
  );
}

/** Inline mode: the 500 px card 'Dentista Virtual IA'; the room loads when the patient starts. */
export function ChatInlineCard({ config }: { config: ChatWidgetConfig }) {
  const [started, setStarted] = useState(false);
  return (
    <section
      aria-labelledby="chat-inline-title"
      className="flex h-[500px] flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="chat-inline-title" className="border-b border-slate-200 px-5 py-4 font-semibold">
        Dentista Virtual IA
      </h2>
      {started ? (
        <Suspense fallback={<p className="p-5 text-sm">Cargando chat...</p>}>
          <ChatWidgetPanel config={config} mode="inline" onClose={() => setStarted(false)} />
        </Suspense>
      ) : (
        <div className="flex flex-1 flex-col items-center justify-center gap-4 p-6 text-center">
          <p className="text-slate-700">
            Resuelve dudas sobre tratamientos, precios y citas con nuestro asistente virtual, basado en el
            contenido de la clínica.
          </p>
          <button
            type="button"
            onClick={() => setStarted(true)}
            className="rounded-xl bg-[#DC2626] px-5 py-2.5 font-semibold text-white hover:bg-red-700"
          >
            Conversar con el Dentista Virtual
          </button>
        </div>
      )}
    </section>
  );
}
