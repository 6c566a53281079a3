import { Loader2 } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  ChatApiError,
  chatRequest,
  isMobileViewport,
  parseFrameMessage,
  refreshTokens,
  TOKEN_PUSH_INTERVAL_MS,
  VIEWPORT_MARGIN_X,
  VIEWPORT_MARGIN_Y,
  WIDGET_DEFAULTS,
  type FrameMessage,
} from "../chat-client";
import {
  chatFailureMessage,
  initialLayout,
  nextSidebar,
  resolveChatTarget,
  type ChatSidebar,
  type ChatTarget,
} from "~/domain/chat-widget-modes";
import { storedTokens, storeTokens, type ChatTokens } from "../chat-token-storage";
import { draftFragment } from "../chat-draft-handover";
import type { ChatWidgetConfig, HandedDraft } from "./chat-launcher";
import { useSidebarInset } from "./use-sidebar-inset";

interface Guest {
  id: string;
}
interface Room {
  room_id: string;
  url: string;
}

/**
 * The parent side of the widget: find or create the guest, create the room with the agent (agent mode) or join an
 * existing one (room mode; the server decides whether this guest may), log the guest in, load the room page in an
 * iframe, and speak the postMessage protocol with it — origin and source checked, an explicit target origin, tokens
 * pushed at load, again after the load delay and every 30 s. It opens as `config.openMode` says (spec open_mode).
 * A failure shows a Spanish message and goes, as the developer's error, to `onError`.
 */
export default function ChatWidgetPanel({
  config,
  mode,
  draft = null,
  onClose,
  onError,
}: {
  config: ChatWidgetConfig;
  mode: "compact" | "inline";
  /** Text typed before the panel opened, for the room's composer. */
  draft?: HandedDraft | null;
  onClose: () => void;
  /** The spec's error callback: called with the developer's error when the widget enters its error state. */
  onError?: (error: Error) => void;
}) {
  const [room, setRoom] = useState<Room | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [fullscreen, setFullscreen] = useState(() => initialLayout(config.openMode).fullscreen);
  const [sidebar, setSidebar] = useState<ChatSidebar>(() => initialLayout(config.openMode).sidebar);
  const [mobile, setMobile] = useState(false);
  /** The room's live connection, as it reports it (websocket_status); null until the first report. */
  const [connected, setConnected] = useState<boolean | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const reportError = useRef(onError);
  useEffect(() => {
    reportError.current = onError;
  });
  const baseUrl = config.baseUrl.replace(/\/+$/, "");
  const frameOrigin = baseUrl ? new URL(baseUrl).origin : window.location.origin;

  // What this panel opens is decided when it opens: a later page of the portal (whose address carries no link) does
  // not switch an open room for another.
  const [resolved] = useState(() =>
    resolveChatTarget({ mode: config.chatMode, agentId: config.agentId, roomId: config.roomId }),
  );

  // The guest flow: find or create the guest, then its room (agent mode) or the one asked for (room mode), then its
  // tokens.
  useEffect(() => {
    let cancelled = false;
    const fail = (failure: unknown) => {
      if (cancelled) return;
      const target: ChatTarget["mode"] | null = resolved.ok ? resolved.target.mode : null;
      const status = failure instanceof ChatApiError ? failure.status : null;
      setError(chatFailureMessage(target, status));
      reportError.current?.(failure instanceof Error ? failure : new Error(String(failure)));
    };
    void (async () => {
      try {
        if (!resolved.ok) throw new Error(resolved.error);
        const target = resolved.target;
        let guest: Guest;
        try {
          guest = await chatRequest<Guest>(
            baseUrl,
            `guest?external_id=${encodeURIComponent(config.externalId)}&account_id=${encodeURIComponent(config.accountId)}`,
          );
        } catch (lookup) {
          if (!(lookup instanceof ChatApiError) || lookup.status !== 404) throw lookup;
          guest = await chatRequest<Guest>(baseUrl, "guest", {
            method: "POST",
            body: { account_id: config.accountId, external_id: config.externalId },
          });
        }
        const created =
          target.mode === "agent"
            ? await chatRequest<Room>(baseUrl, "guest/room", {
                method: "POST",
                body: { account_id: config.accountId, guest_id: guest.id, agent_id: target.agentId },
              })
            : await chatRequest<Room>(baseUrl, `guest/room/${encodeURIComponent(target.roomId)}/members`, {
                method: "POST",
                body: { account_id: config.accountId, guest_id: guest.id },
              });
        const tokens = await chatRequest<ChatTokens>(
          baseUrl,
          `guest/login?guest_id=${guest.id}&account_id=${encodeURIComponent(config.accountId)}`,
          { method: "POST" },
        );
        storeTokens(config.accountId, {
          access_token: tokens.access_token,
          refresh_token: tokens.refresh_token,
          expires_at: tokens.expires_at,
        });
        if (!cancelled) setRoom(created);
      } catch (failure) {
        fail(failure);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [attempt, baseUrl, config.accountId, config.externalId, resolved]);

  const post = useCallback(
    (message: FrameMessage) => frame.current?.contentWindow?.postMessage(message, frameOrigin),
    [frameOrigin],
  );

  const pushToken = useCallback(() => {
    const tokens = storedTokens(config.accountId);
    if (tokens)
      post({ type: "new_access_token", access_token: tokens.access_token, expires_at: tokens.expires_at });
  }, [config.accountId, post]);

  // Mobile: ≤ 768 wide or ≤ 600 high (MOBILE_MAX_WIDTH, MOBILE_MAX_HEIGHT in chat-client.ts).
  useEffect(() => {
    const update = () => setMobile(isMobileViewport(window.innerWidth, window.innerHeight));
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);

  useEffect(() => {
    if (room) post({ type: "mobile_mode_status", mobile });
  }, [mobile, room, post]);

  // Messages from the room page: only from its origin and its window.
  useEffect(() => {
    if (!room) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== frameOrigin || event.source !== frame.current?.contentWindow) return;
      const message = parseFrameMessage(event.data);
      if (!message) return;
      switch (message.type) {
        case "request_guest_auth": {
          const tokens = storedTokens(config.accountId);
          post({
            type: "guest_auth_response",
            access_token: tokens?.access_token ?? null,
            account_id: config.accountId,
          });
          break;
        }
        case "token_refresh_request":
          refreshTokens(baseUrl, config.accountId).then(
            (tokens) => post({ type: "refresh_token", success: true, access_token: tokens.access_token }),
            (failure: unknown) =>
              post({
                type: "refresh_token",
                success: false,
                error: failure instanceof Error ? failure.message : "",
              }),
          );
          break;
        case "widget_close_request":
          onClose();
          break;
        case "widget_fullscreen_request":
          setFullscreen((value) => !value);
          break;
        case "widget_sidebar_request":
          setSidebar(nextSidebar);
          break;
        case "websocket_status":
          setConnected(message.connected === true);
          break;
        case "auth_error":
          setError(chatFailureMessage("agent", 401));
          reportError.current?.(
            new Error(typeof message.error === "string" ? message.error : "No refresh token available"),
          );
          break;
        default:
          break;
      }
    };
    window.addEventListener("message", onMessage);
    // Initial auth at load, again after the load delay (500 ms compact, 2 s otherwise), then every 30 s.
    const again = setTimeout(pushToken, mode === "compact" ? 500 : 2000);
    const every = setInterval(pushToken, TOKEN_PUSH_INTERVAL_MS);
    return () => {
      window.removeEventListener("message", onMessage);
      clearTimeout(again);
      clearInterval(every);
    };
  }, [room, frameOrigin, config.accountId, baseUrl, mode, onClose, post, pushToken]);

  useEffect(() => {
    if (mode !== "compact") return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [mode, onClose]);

  // A docked panel takes its width from the page (no gap, no overlap; the gap fix after 150 ms is in the hook).
  useSidebarInset(panel, mode === "compact" ? sidebar : "none", { fullscreen, mobile });

  const src = room
    ? `${baseUrl}${room.url}?${new URLSearchParams({
        show_close_button: mode === "compact" ? "true" : "false",
        show_fullscreen_button: mode === "compact" ? "true" : "false",
        show_sidebar_button: mode === "compact" ? "true" : "false",
        title: "Dentista Virtual IA",
        suggestions: "true",
        primary_color: WIDGET_DEFAULTS.primaryColor,
        border_radius: String(WIDGET_DEFAULTS.borderRadius),
        compact: mode === "compact" ? "1" : "0",
      }).toString()}${draftFragment(draft)}`
    : null;

  const body = error ? (
    <div role="alert" className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
      <p className="text-sm text-red-800">{error}</p>
      <button
        type="button"
        onClick={() => {
          setError(null);
          setAttempt((value) => value + 1);
        }}
        className="rounded-lg bg-slate-900 px-4 py-2 text-sm font-semibold text-white"
      >
        Reintentar
      </button>
    </div>
  ) : src ? (
    // The room is our own page (or the configured platform's) and needs its origin for the API and postMessage
    // checks, so a sandbox would have to allow scripts and same-origin, which is no sandbox at all.
    // oxlint-disable-next-line react/iframe-missing-sandbox
    <iframe
      ref={frame}
      src={src}
      title="Dentista Virtual IA"
      className="h-full w-full flex-1 border-0"
      onLoad={pushToken}
      data-testid="chat-room-frame"
    />
  ) : (
    <div role="status" className="flex flex-1 items-center justify-center gap-2 p-6 text-sm text-slate-600">
      <Loader2 aria-hidden className="size-4 animate-spin motion-reduce:animate-none" /> Conectando con el
      chat...
    </div>
  );

  const connection =
    src && !error && connected === false ? (
      <p
        role="status"
        data-testid="chat-connection"
        className="bg-amber-50 px-3 py-1.5 text-xs text-amber-900"
      >
        Sin conexión con el chat. Reconectando…
      </p>
    ) : null;

  if (mode === "inline")
    return (
      <div className="flex flex-1 flex-col">
        {connection}
        {body}
      </div>
    );

  const size = mobile
    ? {
        left: VIEWPORT_MARGIN_X / 2,
        top: VIEWPORT_MARGIN_Y / 2,
        width: `calc(100vw - ${VIEWPORT_MARGIN_X}px)`,
        height: `calc(100dvh - ${VIEWPORT_MARGIN_Y}px)`,
      }
    : fullscreen
      ? { inset: 0, width: "100vw", height: "100dvh" }
      : sidebar !== "none"
        ? { top: 0, [sidebar]: 0, width: WIDGET_DEFAULTS.roomWidth, height: "100dvh" }
        : {
            right: WIDGET_DEFAULTS.offset,
            bottom: WIDGET_DEFAULTS.offset,
            width: `min(${WIDGET_DEFAULTS.roomWidth}px, calc(100vw - ${VIEWPORT_MARGIN_X}px))`,
            height: `min(${WIDGET_DEFAULTS.roomHeight}px, calc(100dvh - ${VIEWPORT_MARGIN_Y}px))`,
          };

  return (
    <>
      {mobile && (
        <div
          aria-hidden
          data-testid="chat-overlay"
          className="fixed inset-0 z-40 bg-black/60"
          onClick={onClose}
        />
      )}
      <div
        ref={panel}
        role="dialog"
        aria-label="Dentista Virtual IA"
        data-testid="chat-panel"
        data-layout={
          mobile ? "mobile" : fullscreen ? "fullscreen" : sidebar !== "none" ? `sidebar_${sidebar}` : "widget"
        }
        className="fixed z-50 flex flex-col overflow-hidden bg-white shadow-2xl ring-1 ring-slate-900/10"
        style={{ ...size, borderRadius: fullscreen || sidebar !== "none" ? 0 : WIDGET_DEFAULTS.borderRadius }}
      >
        {error && (
          <div className="flex justify-end p-2">
            <button type="button" onClick={onClose} className="rounded px-2 py-1 text-sm underline">
              Cerrar
            </button>
          </div>
        )}
        {connection}
        {body}
      </div>
    </>
  );
}
