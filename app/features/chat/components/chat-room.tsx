import { Bot, Maximize2, Mic, PanelLeft, Send, Settings, User, UserRound, Users, X } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import * as TabsPrimitive from "@radix-ui/react-tabs";
import { agentTextSegments, SUGGESTED_PROMPTS } from "~/domain/agent-safety";
import { cn } from "~/lib/cn";
import {
  applyDelta,
  chatRequest,
  parseFrameMessage,
  retryAfterMs,
  withoutDraft,
  type FrameMessage,
} from "../chat-client";
import { MAX_CHAT_MESSAGE_LENGTH } from "~/domain/chat-limits";
import { AI_NOTICE_VERSION, type RoomPosition } from "../chat-schema";

export interface RoomOptions {
  roomId: string;
  title: string;
  description: string;
  showClose: boolean;
  showFullscreen: boolean;
  showSidebar: boolean;
  suggestions: boolean;
  primaryColor: string;
  compact: boolean;
  /** Origins allowed to be the parent (ours and CHAT_ALLOWED_ORIGINS). */
  parentOrigins: string[];
  hoursLong: string;
  theme: "light" | "dark";
  /** A mic button, only where the browser has speech recognition. */
  voiceEnabled: boolean;
  /** Where the room sits in a frame larger than room_width × room_height. */
  position: RoomPosition;
  backgroundColor: string;
  backgroundBlur: boolean;
  /** Show the panels as tabs (Chat, Miembros, Ajustes) rather than header buttons. */
  tabs: boolean;
  members: boolean;
  settings: boolean;
  /** false: only this visit's messages are shown. */
  conversationHistory: boolean;
  roomWidth: number | null;
  roomHeight: number | null;
  borderRadius: number;
}

interface RoomMember {
  role: "guest" | "agent" | "staff";
  name: string;
}

type Theme = "light" | "dark";
type TextSize = "normal" | "large";
type View = "chat" | "members" | "settings";

/** Colours of each theme; every text/background pair keeps a contrast of at least 4.5:1. */
const PALETTE: Record<Theme, Record<string, string>> = {
  light: {
    card: "bg-white text-slate-900",
    list: "bg-slate-50",
    bubble: "bg-white ring-1 ring-slate-200",
    mine: "bg-slate-900 text-white",
    link: "text-brand-800",
    muted: "text-slate-600",
    border: "border-slate-200",
    input: "border-slate-300 bg-white text-slate-900",
    chip: "bg-slate-100 text-slate-800 ring-1 ring-slate-300 hover:bg-slate-200",
    strong: "bg-slate-900 text-white",
    notice: "bg-amber-50 ring-1 ring-amber-200",
    waiting: "bg-sky-50 text-sky-900",
    panel: "bg-white",
    tab: "text-slate-700 hover:text-slate-900 data-[state=active]:border-slate-900 data-[state=active]:text-slate-900",
  },
  dark: {
    card: "bg-slate-900 text-slate-100",
    list: "bg-slate-950",
    bubble: "bg-slate-800 text-slate-100 ring-1 ring-slate-700",
    mine: "bg-slate-100 text-slate-900",
    link: "text-sky-300",
    muted: "text-slate-300",
    border: "border-slate-700",
    input: "border-slate-500 bg-slate-800 text-slate-100 placeholder:text-slate-400",
    chip: "bg-slate-800 text-slate-100 ring-1 ring-slate-600 hover:bg-slate-700",
    strong: "bg-slate-100 text-slate-900",
    notice: "bg-amber-950 text-amber-50 ring-1 ring-amber-800",
    waiting: "bg-sky-950 text-sky-100",
    panel: "bg-slate-900",
    tab: "text-slate-200 hover:text-white data-[state=active]:border-sky-300 data-[state=active]:text-sky-300",
  },
};

const POSITION_CLASS: Record<RoomPosition, string> = {
  "bottom-right": "items-end justify-end",
  "bottom-left": "items-end justify-start",
  "bottom-center": "items-end justify-center",
  "top-right": "items-start justify-end",
  "top-left": "items-start justify-start",
  "top-center": "items-start justify-center",
};

const MEMBER_LABEL: Record<RoomMember["role"], string> = {
  guest: "Paciente",
  agent: "Asistente virtual",
  staff: "Equipo de la clínica",
};

const SETTINGS_KEY = "chat-room-settings";

interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onend: (() => void) | null;
  onerror: (() => void) | null;
  start(): void;
  stop(): void;
}

interface Prefs {
  theme: Theme | null;
  textSize: TextSize;
}

const prefListeners = new Set<() => void>();

function subscribePrefs(listener: () => void) {
  prefListeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    prefListeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function readPrefs(): string | null {
  try {
    return window.localStorage.getItem(SETTINGS_KEY);
  } catch {
    return null;
  }
}

function parsePrefs(raw: string | null): Prefs {
  try {
    const saved = JSON.parse(raw ?? "{}") as Partial<Prefs>;
    return {
      theme: saved.theme === "light" || saved.theme === "dark" ? saved.theme : null,
      textSize: saved.textSize === "large" ? "large" : "normal",
    };
  } catch {
    return { theme: null, textSize: "normal" };
  }
}

function writePrefs(next: Prefs) {
  try {
    window.localStorage.setItem(SETTINGS_KEY, JSON.stringify(next));
  } catch {
    // storage unavailable: nothing to keep
  }
  for (const listener of prefListeners) listener();
}

const subscribeNothing = () => () => {};

/** The browser's speech recognition, if it has one (Chromium's is prefixed); never faked. */
function speechRecognition(): (new () => SpeechRecognitionLike) | undefined {
  const scope = window as unknown as {
    SpeechRecognition?: new () => SpeechRecognitionLike;
    webkitSpeechRecognition?: new () => SpeechRecognitionLike;
  };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
}

interface ChatMessage {
  seq: number;
  id: string;
  author: "guest" | "agent" | "staff" | "system";
  content: string;
  created_at: string;
}

interface RoomState {
  status: "bot" | "pending_human" | "open" | "resolved";
  ai_consent: { version: string; accepted_at: string } | null;
  members?: RoomMember[];
  messages: ChatMessage[];
}

const AUTHOR_LABEL: Record<ChatMessage["author"], string> = {
  guest: "Tú",
  agent: "Dentista Virtual IA",
  staff: "Equipo de la clínica",
  system: "Aviso",
};

/** The parent's origin: the referrer's, if it is one of the allowed origins; else our own. */
function parentOriginOf(allowed: string[]): string {
  try {
    const origin = new URL(document.referrer).origin;
    if (allowed.includes(origin)) return origin;
  } catch {
    // no referrer
  }
  return window.location.origin;
}

/** What the agent (or a model) wrote: only links to our own pages (domain/agent-safety.ts) are links. */
export function AgentText({ text, linkClass = "text-brand-800" }: { text: string; linkClass?: string }) {
  return (
    <>
      {agentTextSegments(text).map((segment, index) =>
        segment.href ? (
          <a
            key={index}
            href={segment.href}
            target="_top"
            className={cn("font-semibold underline", linkClass)}
          >
            {segment.text}
          </a>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}

/**
 * The room page inside the widget's iframe (spec 001 §4, §7): it asks the parent for the guest's token, loads the
 * history, follows new messages by SSE (resuming with Last-Event-ID) and sends by POST. What people write is
 * rendered as text; only the agent's links to our own pages become links.
 */
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

export function ChatRoom({ options }: { options: RoomOptions }) {
  const [token, setToken] = useState<string | null>(null);
  const [room, setRoom] = useState<RoomState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const [connected, setConnected] = useState(false);
  const [reload, setReload] = useState(0);
  /** The agent's reply while the model streams it (agent-delta events), by the id it will be stored with. */
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [view, setView] = useState<View>("chat");
  /** The reader's own choices (settings panel), kept in this browser; null theme = the page's. */
  const prefs = parsePrefs(useSyncExternalStore(subscribePrefs, readPrefs, () => null));
  /** Known only in the browser: the server renders no mic button. */
  const canDictate = useSyncExternalStore(
    subscribeNothing,
    () => Boolean(speechRecognition()),
    () => false,
  );
  /** conversation_history=false: messages up to this seq (the history at load) are not shown. */
  const [historyUntil, setHistoryUntil] = useState(0);
  const [listening, setListening] = useState(false);
  /** The parent's mobile mode (mobile_mode_status): the panel already fills the screen, so no fullscreen/sidebar. */
  const [mobile, setMobile] = useState(false);
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const parentOrigin = useRef<string>("");
  const refreshWaiter = useRef<((token: string | null) => void) | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const path = `rooms/${options.roomId}`;

  const toParent = useCallback((message: FrameMessage) => {
    if (window.parent !== window && parentOrigin.current)
      window.parent.postMessage(message, parentOrigin.current);
  }, []);

  // The protocol, iframe side: only the parent window, only from its origin.
  useEffect(() => {
    parentOrigin.current = parentOriginOf(options.parentOrigins);
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent || event.origin !== parentOrigin.current) return;
      const message = parseFrameMessage(event.data);
      if (!message) return;
      if (
        (message.type === "guest_auth_response" || message.type === "new_access_token") &&
        typeof message.access_token === "string"
      ) {
        setToken(message.access_token);
      } else if (message.type === "mobile_mode_status") {
        setMobile(message.mobile === true);
      } else if (message.type === "refresh_token") {
        const fresh =
          message.success === true && typeof message.access_token === "string" ? message.access_token : null;
        if (fresh) setToken(fresh);
        else setError(typeof message.error === "string" ? message.error : "Token refresh failed");
        refreshWaiter.current?.(fresh);
        refreshWaiter.current = null;
      }
    };
    window.addEventListener("message", onMessage);
    toParent({ type: "activate_interface_parenthood" });
    toParent({ type: "request_guest_auth" });
    return () => window.removeEventListener("message", onMessage);
  }, [options.parentOrigins, toParent]);

  /** A 401 asks the parent for a refreshed token (token_refresh_request) and retries once. */
  const withToken = useCallback(
    async <T,>(call: (accessToken: string) => Promise<T>): Promise<T> => {
      if (!token) throw new Error("No refresh token available");
      try {
        return await call(token);
      } catch (failure) {
        if (!(failure instanceof Error) || !/expired access token/.test(failure.message)) throw failure;
        const fresh = await new Promise<string | null>((resolve) => {
          refreshWaiter.current = resolve;
          toParent({ type: "token_refresh_request" });
          setTimeout(() => resolve(null), 30_000);
        });
        if (!fresh) throw failure;
        return call(fresh);
      }
    },
    [token, toParent],
  );

  // History, then the live stream.
  useEffect(() => {
    if (!token) return;
    const life = { stopped: false };
    const controller = new AbortController();
    void (async () => {
      let lastSeq = 0;
      let knownStatus: RoomState["status"] | undefined;
      try {
        const loaded = await chatRequest<RoomState>("", path, { token });
        if (life.stopped) return;
        setRoom(loaded);
        knownStatus = loaded.status;
        lastSeq = loaded.messages.at(-1)?.seq ?? 0;
        if (!options.conversationHistory) setHistoryUntil((current) => current || lastSeq);
      } catch (failure) {
        if (!life.stopped) setError(failure instanceof Error ? failure.message : "HTTP 0");
        return;
      }
      while (!life.stopped) {
        let pause = 2000;
        try {
          const response = await fetch(`/api/chat/${path}/events`, {
            headers: { Authorization: `Bearer ${token}`, "Last-Event-ID": String(lastSeq) },
            signal: controller.signal,
          });
          // The token expired or its session ended: the parent refreshes it (a new token restarts this effect) or,
          // refused, forgets the tokens and reports the failure; retrying with this token would never succeed.
          if (response.status === 401) {
            toParent({ type: "token_refresh_request" });
            return;
          }
          // Too many streams open (other tabs): wait as long as the server asks before trying again.
          if (response.status === 429) pause = retryAfterMs(response.headers.get("retry-after"), pause);
          if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
          setConnected(true);
          toParent({ type: "websocket_status", connected: true });
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let cut: number;
            while ((cut = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const lines = block.split("\n");
              const event =
                lines
                  .find((line) => line.startsWith("event:"))
                  ?.slice(6)
                  .trim() ?? "message";
              const data = lines
                .find((line) => line.startsWith("data:"))
                ?.slice(5)
                .trim();
              if (!data) continue;
              const parsed = JSON.parse(data) as ChatMessage & {
                status?: RoomState["status"];
                offset?: number;
                delta?: string;
                done?: boolean;
              };
              if (event === "agent-delta") {
                setDrafts((current) => applyDelta(current, parsed));
              } else if (event === "status" && parsed.status) {
                const status = parsed.status;
                setRoom((current) => (current ? { ...current, status } : current));
                // A person took (or left) the conversation: the members panel shows who is in it now.
                if (status !== knownStatus && options.members) {
                  void chatRequest<RoomState>("", path, { token }).then(
                    (fresh) =>
                      setRoom((current) => (current ? { ...current, members: fresh.members } : current)),
                    () => {},
                  );
                }
                knownStatus = status;
              } else if (event === "message") {
                lastSeq = Math.max(lastSeq, parsed.seq);
                // The stored reply replaces its draft.
                setDrafts((current) => withoutDraft(current, parsed.id));
                setRoom((current) =>
                  current && !current.messages.some((message) => message.id === parsed.id)
                    ? { ...current, messages: [...current.messages, parsed] }
                    : current,
                );
              }
            }
          }
        } catch {
          if (life.stopped) return;
        }
        setConnected(false);
        toParent({ type: "websocket_status", connected: false });
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    })();
    return () => {
      life.stopped = true;
      controller.abort();
    };
    // A new token (refresh) reconnects the stream with it.
  }, [token, path, reload, toParent, options.conversationHistory, options.members]);

  const toggleVoice = () => {
    if (listening) {
      recognition.current?.stop();
      return;
    }
    const Recognition = speechRecognition();
    if (!Recognition) return;
    const recognizer = new Recognition();
    recognizer.lang = "es-CL";
    recognizer.interimResults = false;
    recognizer.onresult = (event) => {
      const transcript = Array.from(event.results)
        .map((result) => result[0]?.transcript ?? "")
        .join(" ")
        .trim();
      if (transcript) setDraft((current) => (current ? `${current} ${transcript}` : transcript));
    };
    recognizer.onend = () => setListening(false);
    recognizer.onerror = () => setError("No se pudo usar el micrófono. Revisa los permisos del navegador.");
    recognition.current = recognizer;
    setListening(true);
    recognizer.start();
  };

  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: "end" });
  }, [room?.messages.length]);

  const send = async (text: string) => {
    const content = text.trim();
    if (!content || sending) return;
    setSending(true);
    setError(null);
    try {
      await withToken((accessToken) =>
        chatRequest("", `${path}/messages`, {
          method: "POST",
          token: accessToken,
          body: { id: crypto.randomUUID(), content },
        }),
      );
      setDraft("");
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "HTTP 0");
    } finally {
      setSending(false);
    }
  };

  const accept = async () => {
    try {
      const updated = await withToken((accessToken) =>
        chatRequest<RoomState>("", `${path}/consent`, {
          method: "POST",
          token: accessToken,
          body: { version: AI_NOTICE_VERSION, accepted: true },
        }),
      );
      setRoom((current) => (current ? { ...current, ai_consent: updated.ai_consent } : current));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "HTTP 0");
    }
  };

  const askHuman = async () => {
    try {
      const updated = await withToken((accessToken) =>
        chatRequest<RoomState>("", `${path}/handoff`, { method: "POST", token: accessToken, body: {} }),
      );
      setRoom((current) => (current ? { ...current, status: updated.status } : current));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "HTTP 0");
    }
  };

  const needsConsent = room?.status === "bot" && !room.ai_consent;
  const withPerson = room?.status === "pending_human" || room?.status === "open";
  const theme: Theme = prefs.theme ?? options.theme;
  const pal = PALETTE[theme];
  const textClass = prefs.textSize === "large" ? "text-base" : "text-sm";
  const shown = room ? room.messages.filter((message) => message.seq > historyUntil) : [];
  const sized = options.roomWidth !== null || options.roomHeight !== null;
  const panels: View[] = [
    "chat",
    ...(options.members ? (["members"] as const) : []),
    ...(options.settings ? (["settings"] as const) : []),
  ];
  const PANEL_LABEL: Record<View, string> = { chat: "Chat", members: "Miembros", settings: "Ajustes" };

  const header = (
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
          onClick={() => setView(view === "members" ? "chat" : "members")}
        >
          <Users aria-hidden className="size-4" />
        </HeaderButton>
      )}
      {!options.tabs && options.settings && (
        <HeaderButton
          label="Ajustes del chat"
          pressed={view === "settings"}
          onClick={() => setView(view === "settings" ? "chat" : "settings")}
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

  const membersPanel = (
    <section aria-labelledby="chat-members-title" className={cn("flex-1 overflow-y-auto p-4", pal.panel)}>
      <h2 id="chat-members-title" className="font-semibold">
        Miembros de la conversación
      </h2>
      {room?.members ? (
        <ul className="mt-3 space-y-2" data-testid="chat-members">
          {room.members.map((member) => (
            <li key={`${member.role}:${member.name}`} className={cn("rounded-lg px-3 py-2", pal.bubble)}>
              <span className="font-semibold">{member.name}</span>{" "}
              <span className={cn("text-xs", pal.muted)}>({MEMBER_LABEL[member.role]})</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={cn("mt-3 text-sm", pal.muted)}>Cargando…</p>
      )}
    </section>
  );

  const settingsPanel = (
    <section aria-labelledby="chat-settings-title" className={cn("flex-1 overflow-y-auto p-4", pal.panel)}>
      <h2 id="chat-settings-title" className="font-semibold">
        Ajustes del chat
      </h2>
      <fieldset className="mt-3">
        <legend className="text-sm font-semibold">Tema</legend>
        <div className="mt-1 flex gap-4 text-sm">
          {(["light", "dark"] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="chat-theme"
                value={value}
                checked={theme === value}
                onChange={() => writePrefs({ ...prefs, theme: value })}
              />
              {value === "light" ? "Claro" : "Oscuro"}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="mt-4">
        <legend className="text-sm font-semibold">Tamaño del texto</legend>
        <div className="mt-1 flex gap-4 text-sm">
          {(["normal", "large"] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="chat-text-size"
                value={value}
                checked={prefs.textSize === value}
                onChange={() => writePrefs({ ...prefs, textSize: value })}
              />
              {value === "normal" ? "Normal" : "Grande"}
            </label>
          ))}
        </div>
      </fieldset>
      <p className={cn("mt-4 text-xs", pal.muted)}>Se guardan en este navegador.</p>
    </section>
  );

  const chatPanel = (
    <>
      {!token && !error && (
        <p role="status" className={cn("p-4 text-sm", pal.muted)}>
          Conectando...
        </p>
      )}

      {room && needsConsent && (
        <section aria-labelledby="ai-notice-title" className={cn("m-4 rounded-xl p-4 text-sm", pal.notice)}>
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
              onClick={() => void accept()}
              className={cn("rounded-lg px-3 py-2 font-semibold", pal.strong)}
            >
              Acepto y quiero continuar
            </button>
            <button
              type="button"
              onClick={() => void askHuman()}
              className="rounded-lg px-3 py-2 font-semibold underline"
            >
              Prefiero hablar con una persona
            </button>
          </div>
        </section>
      )}

      {room && (
        <ol
          ref={list}
          aria-label="Mensajes"
          aria-live="polite"
          // While a reply streams in, screen readers wait: the stored reply is announced once, not every token.
          aria-busy={Object.keys(drafts).length > 0}
          className={cn("flex-1 space-y-3 overflow-y-auto p-4", pal.list)}
        >
          {shown.map((message) => (
            <li
              key={message.id}
              data-author={message.author}
              className={message.author === "guest" ? "flex justify-end" : "flex"}
            >
              <div
                className={cn(
                  "max-w-[85%] rounded-2xl px-3 py-2 whitespace-pre-wrap",
                  textClass,
                  message.author === "guest"
                    ? cn("rounded-br-sm", pal.mine)
                    : cn("rounded-bl-sm", pal.bubble),
                )}
              >
                <p className="mb-1 flex items-center gap-1 text-xs font-semibold">
                  {message.author === "guest" ? (
                    <User aria-hidden className="size-3" />
                  ) : message.author === "staff" ? (
                    <UserRound aria-hidden className="size-3" />
                  ) : (
                    <Bot aria-hidden className="size-3" />
                  )}
                  {AUTHOR_LABEL[message.author]}
                </p>
                {message.author === "agent" ? (
                  <AgentText text={message.content} linkClass={pal.link} />
                ) : (
                  message.content
                )}
              </div>
            </li>
          ))}
          {Object.entries(drafts)
            .filter(([id]) => !room.messages.some((message) => message.id === id))
            .map(([id, text]) => (
              // Hidden from the live region: the stored message that replaces it is what gets announced.
              <li
                key={`draft-${id}`}
                data-author="agent"
                data-draft="true"
                aria-hidden="true"
                className="flex"
              >
                <div
                  className={cn(
                    "max-w-[85%] rounded-2xl rounded-bl-sm px-3 py-2 whitespace-pre-wrap",
                    textClass,
                    pal.bubble,
                  )}
                >
                  <p className="mb-1 flex items-center gap-1 text-xs font-semibold">
                    <Bot aria-hidden className="size-3" />
                    {AUTHOR_LABEL.agent}
                  </p>
                  <AgentText text={text} linkClass={pal.link} />
                  <span className="ml-0.5 inline-block animate-pulse motion-reduce:animate-none">▍</span>
                </div>
              </li>
            ))}
        </ol>
      )}

      {room && withPerson && (
        <p role="status" className={cn("px-4 py-2 text-xs", pal.waiting)}>
          Una persona del equipo te responderá aquí. Horario: {options.hoursLong}.
        </p>
      )}

      {error && (
        <div
          role="alert"
          className="flex items-center justify-between gap-2 bg-red-50 px-4 py-2 text-sm text-red-800"
        >
          <span>{error}</span>
          <button
            type="button"
            onClick={() => {
              setError(null);
              setReload((value) => value + 1);
            }}
            className="font-semibold underline"
          >
            Reintentar
          </button>
        </div>
      )}

      {room && !needsConsent && room.status !== "resolved" && (
        <div className={cn("border-t p-3", pal.border)}>
          {options.suggestions && room.messages.length === 0 && (
            <div className="mb-2 flex flex-wrap gap-1.5" aria-label="Preguntas sugeridas" role="group">
              {SUGGESTED_PROMPTS.map((prompt) => (
                <button
                  key={prompt}
                  type="button"
                  disabled={sending}
                  onClick={() => void send(prompt)}
                  className={cn("rounded-full px-3 py-1 text-xs", pal.chip)}
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
              void send(draft);
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
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey) {
                  event.preventDefault();
                  void send(draft);
                }
              }}
              placeholder="Escribe tu mensaje..."
              className={cn("min-h-10 flex-1 resize-none rounded-xl border px-3 py-2", textClass, pal.input)}
            />
            {options.voiceEnabled && canDictate && (
              <button
                type="button"
                aria-label={listening ? "Detener dictado" : "Dictar mensaje"}
                aria-pressed={listening}
                data-testid="chat-voice"
                onClick={toggleVoice}
                className={cn("flex size-10 items-center justify-center rounded-xl", pal.chip)}
              >
                <Mic aria-hidden className={cn("size-4", listening && "text-red-600")} />
              </button>
            )}
            <button
              type="submit"
              disabled={sending || !draft.trim()}
              aria-label="Enviar mensaje"
              className={cn(
                "flex size-10 items-center justify-center rounded-xl disabled:opacity-50",
                pal.strong,
              )}
            >
              <Send aria-hidden className="size-4" />
            </button>
          </form>
          {room.status === "bot" && (
            <button
              type="button"
              onClick={() => void askHuman()}
              className={cn("mt-2 text-xs font-semibold underline", pal.muted)}
            >
              Hablar con una persona
            </button>
          )}
        </div>
      )}
    </>
  );

  const panelOf = (panel: View) =>
    panel === "members" ? membersPanel : panel === "settings" ? settingsPanel : chatPanel;

  return (
    // The frame: background_color (with background_blur) shows around the room when the frame is larger than
    // room_width × room_height, and position places the room in it.
    <div
      data-theme={theme}
      data-position={options.position}
      data-background-blur={options.backgroundBlur ? "true" : "false"}
      className={cn("flex h-dvh w-full", POSITION_CLASS[options.position])}
      style={{ backgroundColor: options.backgroundColor }}
    >
      <div
        data-testid="chat-room"
        className={cn(
          "flex h-full w-full flex-col overflow-hidden",
          pal.card,
          options.backgroundBlur && "backdrop-blur-md",
        )}
        style={{
          maxWidth: options.roomWidth ?? undefined,
          maxHeight: options.roomHeight ?? undefined,
          borderRadius: sized ? options.borderRadius : undefined,
        }}
      >
        {header}
        {options.tabs && panels.length > 1 ? (
          // Radix tabs (arrow keys, Home, End; one tab stop), styled per theme here: the shared TabsTrigger's
          // light-only colours cannot be overridden without tailwind-merge.
          <TabsPrimitive.Root
            value={view}
            onValueChange={(value) => setView(value as View)}
            className="flex min-h-0 flex-1 flex-col"
          >
            <TabsPrimitive.List
              aria-label="Secciones del chat"
              className={cn("flex gap-1 border-b px-2", pal.border, pal.card)}
            >
              {panels.map((panel) => (
                <TabsPrimitive.Trigger
                  key={panel}
                  value={panel}
                  className={cn(
                    "-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-semibold",
                    pal.tab,
                  )}
                >
                  {PANEL_LABEL[panel]}
                </TabsPrimitive.Trigger>
              ))}
            </TabsPrimitive.List>
            {panels.map((panel) => (
              <TabsPrimitive.Content
                key={panel}
                value={panel}
                className="flex min-h-0 flex-1 flex-col data-[state=inactive]:hidden"
              >
                {panelOf(panel)}
              </TabsPrimitive.Content>
            ))}
          </TabsPrimitive.Root>
        ) : (
          panelOf(view)
        )}
      </div>
    </div>
  );
}
