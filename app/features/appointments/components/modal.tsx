import { X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { cn } from "~/lib/cn";

interface ModalProps {
  open: boolean;
  /** Called whenever the dialog closes: Escape, the close button, or `open` turning false. */
  onClose: () => void;
  title: string;
  /** Shown under the title. */
  description?: React.ReactNode;
  children: React.ReactNode;
  /** Where focus goes when the element that opened the dialog is gone (e.g. a card's button after a change). */
  fallbackFocus?: () => HTMLElement | null;
  /** "lg" for the booking flow's two-column choices. */
  size?: "md" | "lg";
  testId?: string;
}

/**
 * A native modal <dialog> (showModal): the rest of the page is inert, so focus stays inside; Escape closes it; focus
 * returns to the element that opened it.
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  children,
  fallbackFocus,
  size = "md",
  testId,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  function handleClose() {
    const target = opener.current;
    opener.current = null;
    onClose();
    // The opener may have been removed by the change the dialog made (a cancelled appointment loses its buttons).
    const focusTarget = target?.isConnected ? target : (fallbackFocus?.() ?? null);
    focusTarget?.focus();
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={handleClose}
      data-testid={testId}
      className={cn(
        "m-auto rounded-2xl p-0 text-ink shadow-2xl backdrop:bg-ink/60",
        size === "lg" ? "w-[min(48rem,calc(100vw-2rem))]" : "w-[min(40rem,calc(100vw-2rem))]",
      )}
    >
      {open && (
        <div className="max-h-[85vh] overflow-y-auto p-6">
          <div className="flex items-start justify-between gap-4">
            <div>
              <h2 id={titleId} className="text-xl font-bold">
                {title}
              </h2>
              {description && (
                <div id={descriptionId} className="mt-1 text-sm text-slate-700">
                  {description}
                </div>
              )}
            </div>
            <button
              type="button"
              onClick={() => ref.current?.close()}
              className="rounded-lg p-1.5 text-slate-700 hover:bg-slate-100"
              aria-label="Cerrar"
            >
              <X aria-hidden className="size-5" />
            </button>
          </div>
          <div className="mt-5">{children}</div>
        </div>
      )}
    </dialog>
  );
}
