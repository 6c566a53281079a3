import { Bot, Maximize2, PanelLeft, Settings, Users, X } from "lucide-react";
import type { ReactNode } from "react";
import type { FrameMessage } from "../chat-client";
import type { RoomOptions } from "../chat-room-state";

export type RoomView = "chat" | "members" | "settings";

/** An icon button in the room's coloured header; `pressed` for the ones that toggle a panel. */
function HeaderButton({
  label,
  pressed,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      aria-pressed={pressed}
      className="rounded p-1.5 hover:bg-white/20 aria-pressed:bg-white/25"
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/**
 * The room's coloured header: title, who answers, the connection for screen readers; the panel toggles (when the
 * panels are not tabs) and the buttons that ask the parent to move, enlarge or close the widget.
 */
export function ChatRoomHeader({
  options,
  withPerson,
  connected,
  mobile,
  view,
  onView,
  toParent,
}: {
  options: RoomOptions;
  withPerson: boolean;
  connected: boolean;
  /** The parent's mobile mode: the panel already fills the screen, so no fullscreen or sidebar. */
  mobile: boolean;
  view: RoomView;
  onView: (view: RoomView) => void;
  toParent: (message: FrameMessage) => void;
}) {
  return (
    <header
      className="flex items-center gap-2 px-4 py-3 text-white"
      style={{ backgroundColor: options.primaryColor }}
    >
      <Bot aria-hidden className="size-5" />
      <div className="min-w-0 flex-1">
        <h1 className="truncate font-semibold">{options.title}</h1>
        <p className="truncate text-xs text-white">
          {withPerson ? "Conversación con el equipo" : options.description}
          <span className="sr-only">{connected ? " (conectado)" : " (sin conexión)"}</span>
        </p>
      </div>
      {!options.tabs && options.members && (
        <HeaderButton
          label="Miembros de la conversación"
          pressed={view === "members"}
          onClick={() => onView(view === "members" ? "chat" : "members")}
        >
          <Users aria-hidden className="size-4" />
        </HeaderButton>
      )}
      {!options.tabs && options.settings && (
        <HeaderButton
          label="Ajustes del chat"
          pressed={view === "settings"}
          onClick={() => onView(view === "settings" ? "chat" : "settings")}
        >
          <Settings aria-hidden className="size-4" />
        </HeaderButton>
      )}
      {options.showSidebar && !mobile && (
        <HeaderButton label="Mover a un costado" onClick={() => toParent({ type: "widget_sidebar_request" })}>
          <PanelLeft aria-hidden className="size-4" />
        </HeaderButton>
      )}
      {options.showFullscreen && !mobile && (
        <HeaderButton
          label="Pantalla completa"
          onClick={() => toParent({ type: "widget_fullscreen_request" })}
        >
          <Maximize2 aria-hidden className="size-4" />
        </HeaderButton>
      )}
      {options.showClose && (
        <HeaderButton label="Cerrar chat" onClick={() => toParent({ type: "widget_close_request" })}>
          <X aria-hidden className="size-4" />
        </HeaderButton>
      )}
    </header>
  );
}
