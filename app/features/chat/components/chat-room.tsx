import { Bot, Maximize2, PanelLeft, Send, User, UserRound, X } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { SUGGESTED_PROMPTS } from "~/domain/agent-safety";
import {
  agentTextSegments,
  applyDelta,
  chatRequest,
  parseFrameMessage,
  withoutDraft,
  type FrameMessage,
} from "../chat-client";
import { AI_NOTICE_VERSION, MAX_CHAT_MESSAGE_LENGTH } from "../chat-schema";

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

function AgentText({ text }: { text: string }) {
  return (
    <>
      {agentTextSegments(text).map((segment, index) =>
        segment.href ? (
          <a key={index} href={segment.href} target="_top" className="font-semibold text-brand-800 underline">
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
      try {
        const loaded = await chatRequest<RoomState>("", path, { token });
        if (life.stopped) return;
        setRoom(loaded);
        lastSeq = loaded.messages.at(-1)?.seq ?? 0;
      } catch (failure) {
        if (!life.stopped) setError(failure instanceof Error ? failure.message : "HTTP 0");
        return;
      }
      while (!life.stopped) {
        try {
          const response = await fetch(`/api/chat/${path}/events`, {
            headers: { Authorization: `Bearer ${token}`, "Last-Event-ID": String(lastSeq) },
            signal: controller.signal,
          });
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
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    })();
    return () => {
      life.stopped = true;
      controller.abort();
    };
    // A new token (refresh) reconnects the stream with it.
  }, [token, path, reload, toParent]);

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

  return (
    <div className="flex h-dvh flex-col bg-white text-slate-900">
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
        {options.showSidebar && (
          <button
            type="button"
            aria-label="Mover a un costado"
            className="rounded p-1.5 hover:bg-white/20"
            onClick={() => toParent({ type: "widget_sidebar_request" })}
          >
            <PanelLeft aria-hidden className="size-4" />
          </button>
        )}
        {options.showFullscreen && (
          <button
            type="button"
            aria-label="Pantalla completa"
            className="rounded p-1.5 hover:bg-white/20"
            onClick={() => toParent({ type: "widget_fullscreen_request" })}
          >
            <Maximize2 aria-hidden className="size-4" />
          </button>
        )}
        {options.showClose && (
          <button
            type="button"
            aria-label="Cerrar chat"
            className="rounded p-1.5 hover:bg-white/20"
            onClick={() => toParent({ type: "widget_close_request" })}
          >
            <X aria-hidden className="size-4" />
          </button>
        )}
      </header>

      {!token && !error && (
        <p role="status" className="p-4 text-sm text-slate-600">
          Conectando...
        </p>
      )}

      {room && needsConsent && (
        <section
          aria-labelledby="ai-notice-title"
          className="m-4 rounded-xl bg-amber-50 p-4 text-sm ring-1 ring-amber-200"
        >
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
              className="rounded-lg bg-slate-900 px-3 py-2 font-semibold text-white"
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
          className="flex-1 space-y-3 overflow-y-auto bg-slate-50 p-4"
        >
          {room.messages.map((message) => (
            <li
              key={message.id}
              data-author={message.author}
              className={message.author === "guest" ? "flex justify-end" : "flex"}
            >
              <div
                className={
                  message.author === "guest"
                    ? "max-w-[85%] rounded-2xl rounded-br-sm bg-slate-900 px-3 py-2 text-sm whitespace-pre-wrap text-white"
                    : "max-w-[85%] rounded-2xl rounded-bl-sm bg-white px-3 py-2 text-sm whitespace-pre-wrap ring-1 ring-slate-200"
                }
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
                {message.author === "agent" ? <AgentText text={message.content} /> : message.content}
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
                <div className="max-w-[85%] rounded-2xl rounded-bl-sm bg-white px-3 py-2 text-sm whitespace-pre-wrap ring-1 ring-slate-200">
                  <p className="mb-1 flex items-center gap-1 text-xs font-semibold">
                    <Bot aria-hidden className="size-3" />
                    {AUTHOR_LABEL.agent}
                  </p>
                  <AgentText text={text} />
                  <span className="ml-0.5 inline-block animate-pulse">▍</span>
                </div>
              </li>
            ))}
        </ol>
      )}

      {room && withPerson && (
        <p role="status" className="bg-sky-50 px-4 py-2 text-xs text-sky-900">
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
        <div className="border-t border-slate-200 p-3">
          {options.suggestions && room.messages.length === 0 && (
            <div className="mb-2 flex flex-wrap gap-1.5" aria-label="Preguntas sugeridas" role="group">
              {SUGGESTED_PROMPTS.map((prompt) => (
                <button
                  key={prompt}
                  type="button"
                  disabled={sending}
                  onClick={() => void send(prompt)}
                  className="rounded-full bg-slate-100 px-3 py-1 text-xs text-slate-800 ring-1 ring-slate-300 hover:bg-slate-200"
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
              className="min-h-10 flex-1 resize-none rounded-xl border border-slate-300 px-3 py-2 text-sm"
            />
            <button
              type="submit"
              disabled={sending || !draft.trim()}
              aria-label="Enviar mensaje"
              className="flex size-10 items-center justify-center rounded-xl bg-slate-900 text-white disabled:opacity-50"
            >
              <Send aria-hidden className="size-4" />
            </button>
          </form>
          {room.status === "bot" && (
            <button
              type="button"
              onClick={() => void askHuman()}
              className="mt-2 text-xs font-semibold text-slate-700 underline"
            >
              Hablar con una persona
            </button>
          )}
        </div>
      )}
    </div>
  );
}
