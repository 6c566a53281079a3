import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useRef } from "react";
import { cn } from "~/lib/cn";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

const sizes = {
  md: "w-[min(40rem,calc(100vw-2rem))]",
  /** For two-column choices. */
  lg: "w-[min(48rem,calc(100vw-2rem))]",
} as const;

export interface DialogContentProps extends Omit<
  React.ComponentProps<typeof DialogPrimitive.Content>,
  "title"
> {
  title: React.ReactNode;
  /** Shown under the title; also the dialog's accessible description. */
  description?: React.ReactNode;
  /** The close button's accessible name. */
  closeLabel?: string;
  size?: keyof typeof sizes;
  testId?: string;
}

/**
 * A modal dialog over a dimmed page: focus moves in and stays inside, Escape or the close button dismiss it, the title
 * and description label it. A click on the dimmed page does not dismiss it, as with a native modal <dialog>: a
 * half-filled multi-step form would be lost to a stray click.
 */
export function DialogContent({
  title,
  description,
  closeLabel = "Cerrar",
  size = "md",
  testId,
  className,
  children,
  onPointerDownOutside,
  ...props
}: DialogContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink/60" />
      <DialogPrimitive.Content
        // Radix hides the rest of the page from assistive technology; aria-modal says so to them as well.
        aria-modal="true"
        data-testid={testId}
        onPointerDownOutside={(event) => {
          onPointerDownOutside?.(event);
          event.preventDefault();
        }}
        className={cn(
          "fixed top-1/2 left-1/2 z-50 -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white text-ink shadow-2xl " +
            "focus:outline-none",
          sizes[size],
          className,
        )}
        {...props}
      >
        <div className="max-h-[85vh] overflow-y-auto p-6">
          <div className="flex items-start justify-between gap-4">
            <div>
              <DialogPrimitive.Title className="text-xl font-bold">{title}</DialogPrimitive.Title>
              {description && (
                <DialogPrimitive.Description className="mt-1 text-sm text-slate-700">
                  {description}
                </DialogPrimitive.Description>
              )}
            </div>
            <DialogPrimitive.Close
              className="rounded-lg p-1.5 text-slate-700 hover:bg-slate-100"
              aria-label={closeLabel}
            >
              <svg
                aria-hidden
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth={2}
                strokeLinecap="round"
                strokeLinejoin="round"
                className="size-5"
              >
                <path d="M18 6 6 18M6 6l12 12" />
              </svg>
            </DialogPrimitive.Close>
          </div>
          <div className="mt-5">{children}</div>
        </div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

interface ModalProps extends Omit<DialogContentProps, "onOpenAutoFocus" | "onCloseAutoFocus"> {
  open: boolean;
  /** Called when the user dismisses the dialog (Escape or the close button). */
  onClose: () => void;
  /** Where focus goes when the element that opened the dialog is gone (e.g. a card's button after a change). */
  fallbackFocus?: () => HTMLElement | null;
}

/**
 * A dialog opened by state rather than by a trigger: focus returns to whatever had it when the dialog opened, or to
 * `fallbackFocus` when that element was removed by the change the dialog made (a cancelled appointment loses its
 * buttons).
 */
export function Modal({ open, onClose, fallbackFocus, ...content }: ModalProps) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DialogContent
        {...content}
        onOpenAutoFocus={() => {
          opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          const target = opener.current;
          opener.current = null;
          const focusTarget = target?.isConnected ? target : (fallbackFocus?.() ?? null);
          focusTarget?.focus();
        }}
      />
    </Dialog>
  );
}
