import { ClipboardList, MessageCircle } from "~/components/static-icons";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";

export type HelperMode = "closed" | "chat" | "wizard";

// The panel (chat, wizard, their state) is a separate chunk fetched on the first click (the public JS budget).
const HelperPanel = lazy(() => import("./helper-panel"));

export function FloatingHelper() {
  const [mode, setMode] = useState<HelperMode>("closed");
  const launcher = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  // The launcher exists again only after the closed state has rendered; focus it then (keyboard users keep
  // their place).
  useEffect(() => {
    if (mode === "closed" && returnFocus.current) {
      returnFocus.current = false;
      launcher.current?.focus();
    }
  }, [mode]);

  const close = useCallback(() => {
    returnFocus.current = true;
    setMode("closed");
  }, []);

  return (
    // On a phone the two buttons sit side by side (56 px tall, not 124): the hero's call to action stays clear of
    // them, and the page's end keeps room for them (`floating-controls` in app.css; issue 24, item 7).
    <div data-floating-control="helper" className="fixed bottom-4 right-4 z-50 flex flex-col items-end gap-3">
      {mode !== "closed" && (
        <Suspense
          fallback={
            <div
              role="status"
              className="rounded-xl bg-white px-4 py-3 text-sm shadow-lg ring-1 ring-slate-200"
            >
              Cargando asistente...
            </div>
          }
        >
          <HelperPanel mode={mode} onModeChange={setMode} onClose={close} />
        </Suspense>
      )}
      {mode === "closed" && (
        <div className="flex gap-3 sm:flex-col">
          <button
            type="button"
            onClick={() => setMode("wizard")}
            className="flex size-14 items-center justify-center rounded-full bg-white text-brand-800 shadow-lg ring-1 ring-slate-200 hover:bg-brand-50"
            aria-label="Abrir asistente guiado"
            title="Asistente guiado"
          >
            <ClipboardList className="size-6" />
          </button>
          <button
            ref={launcher}
            type="button"
            onClick={() => setMode("chat")}
            className="flex size-14 items-center justify-center rounded-full bg-brand-700 text-white shadow-lg hover:bg-brand-800"
            aria-label="Abrir chat con Rio, asistente IA"
            title="Chat IA"
          >
            <MessageCircle className="size-6" />
          </button>
        </div>
      )}
    </div>
  );
}
