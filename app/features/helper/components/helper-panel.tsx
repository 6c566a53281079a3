import { Minus, X } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "~/lib/cn";
import type { HelperMode } from "./floating-helper";
import { HelperChat } from "./helper-chat";
import { HelperWizard } from "./helper-wizard";

interface HelperPanelProps {
  mode: Exclude<HelperMode, "closed">;
  onModeChange: (mode: HelperMode) => void;
  onClose: () => void;
}

export default function HelperPanel({ mode, onModeChange, onClose }: HelperPanelProps) {
  // The minimized flag resets when the mode changes (the clinic's helper does so), so it is kept per mode.
  const [minimizedIn, setMinimizedIn] = useState<HelperPanelProps["mode"] | null>(null);
  const minimized = minimizedIn === mode;
  const [opened, setOpened] = useState<ReadonlySet<HelperPanelProps["mode"]>>(() => new Set([mode]));
  if (!opened.has(mode)) setOpened(new Set([...opened, mode]));

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [onClose]);

  const title = mode === "chat" ? "Rio · Chat IA" : "Asistente guiado";
  return (
    <div
      role="dialog"
      aria-label={title}
      className="flex w-[min(24rem,calc(100vw-2rem))] flex-col overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 ring-slate-200"
    >
      <div className="flex items-center justify-between bg-brand-700 px-4 py-3 text-white">
        <p className="font-semibold">{title}</p>
        <div className="flex gap-1">
          <button
            type="button"
            className="rounded p-1.5 hover:bg-white/15"
            aria-label={minimized ? "Expandir" : "Minimizar"}
            aria-expanded={!minimized}
            onClick={() => setMinimizedIn(minimized ? null : mode)}
          >
            <Minus aria-hidden className="size-4" />
          </button>
          <button
            type="button"
            className="rounded p-1.5 hover:bg-white/15"
            aria-label="Cerrar"
            onClick={onClose}
          >
            <X aria-hidden className="size-4" />
          </button>
        </div>
      </div>
      <div hidden={minimized}>
        {/* Both stay mounted once opened, so switching modes and back keeps the conversation and the wizard's
            answers (issue 24, item 5). */}
        {opened.has("chat") && (
          <div hidden={mode !== "chat"} data-testid="helper-mode-chat">
            <HelperChat />
          </div>
        )}
        {opened.has("wizard") && (
          <div hidden={mode !== "wizard"} data-testid="helper-mode-wizard">
            <HelperWizard onDone={onClose} />
          </div>
        )}
        <div
          className="flex gap-1 border-t border-slate-200 bg-slate-50 p-2"
          role="group"
          aria-label="Modo del asistente"
        >
          {(
            [
              ["chat", "Chat IA"],
              ["wizard", "Asistente"],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={mode === value}
              onClick={() => onModeChange(value)}
              className={cn(
                "rounded-lg px-3 py-1.5 text-sm font-medium",
                mode === value ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-200",
              )}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
