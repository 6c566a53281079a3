import { Bot, CalendarPlus, HelpCircle, Info, MessageSquare, Phone, Send, User } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTypedBeforeHydration } from "~/lib/typed-before-hydration";
import { useFetcher } from "react-router";
import { ADVISOR_FAILURE_MESSAGE, ADVISOR_MAX_MESSAGE_LENGTH } from "~/domain/advisor-replies";
import { formatClinicTime } from "~/domain/format";
import { cn } from "~/lib/cn";
import { advisorMessageSchema, type AdvisorActionData, type AdvisorMessageDto } from "../advisor-schema";

/** The typing indicator stays at least this long, so a fast answer does not flash. */
export const MIN_TYPING_MS = 600;

/** The quick actions, labels and texts as the clinic's specification gives them: these only fill the input. */
export const QUICK_ACTIONS = [
  { label: "Agendar cita", text: "Quiero agendar una nueva cita", icon: CalendarPlus },
  { label: "Información de contacto", text: "Necesito los datos de contacto de la clínica", icon: Phone },
  { label: "Consulta general", text: "Tengo una consulta sobre tratamientos dentales", icon: MessageSquare },
] as const;

interface AdvisorWorkspaceProps {
  initialMessages: AdvisorMessageDto[];
  /** The clinic's landline, E.164 and as shown. */
  phone: { e164: string; display: string };
  /** The clinic's weekday hours as the help card shows them ("Lun-Vie 9:00-18:00"). */
  hours: string;
  /** Where the fetcher posts (the route's action). */
  action: string;
}

/** The chat card, the quick actions and the help card of /paciente/asesor. */
export function AdvisorWorkspace({ initialMessages, phone, hours, action }: AdvisorWorkspaceProps) {
  const fetcher = useFetcher<AdvisorActionData>();
  const [messages, setMessages] = useState(initialMessages);
  const [draft, setDraft] = useState("");
  const [typing, setTyping] = useState(false);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLTextAreaElement>(null);
  useTypedBeforeHydration(input, draft, setDraft);
  const log = useRef<HTMLDivElement>(null);
  const sent = useRef<{ at: number; id: string; content: string } | null>(null);
  const handled = useRef<unknown>(null);
  const replyTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const localIds = useRef(0);

  // A revalidation (another tab, a navigation back here) brings the stored conversation.
  useEffect(() => {
    if (!sent.current) setMessages(initialMessages);
  }, [initialMessages]);

  useEffect(() => () => clearTimeout(replyTimer.current), []);

  useEffect(() => {
    const node = log.current;
    if (node) node.scrollTop = node.scrollHeight;
  }, [messages, typing]);

  useEffect(() => {
    const result = fetcher.data;
    const pending = sent.current;
    if (fetcher.state !== "idle" || !result || !pending || handled.current === result) return;
    handled.current = result;
    const wait = Math.max(0, MIN_TYPING_MS - (Date.now() - pending.at));
    replyTimer.current = setTimeout(() => {
      sent.current = null;
      setTyping(false);
      if (result.ok) {
        setMessages((list) => [
          ...list.filter((message) => message.id !== pending.id),
          ...result.data.messages,
        ]);
      } else if (result.code === "INTERNAL") {
        setMessages((list) => [...list, localMessage("assistant", ADVISOR_FAILURE_MESSAGE)]);
      } else {
        // Refused (too long, too fast): nothing was stored, so the text goes back into the input.
        setMessages((list) => list.filter((message) => message.id !== pending.id));
        setDraft((current) => current || pending.content);
        setError(result.message);
      }
    }, wait);
  }, [fetcher.state, fetcher.data]);

  function localMessage(role: AdvisorMessageDto["role"], content: string): AdvisorMessageDto {
    localIds.current += 1;
    return {
      id: `local-${localIds.current}`,
      role,
      content,
      type: "general",
      time: formatClinicTime(new Date()),
    };
  }

  const busy = typing || fetcher.state !== "idle";
  const blank = draft.trim().length === 0;

  function send() {
    if (busy || blank) return;
    const parsed = advisorMessageSchema.safeParse({ content: draft });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    const message = localMessage("user", parsed.data.content);
    sent.current = { at: Date.now(), id: message.id, content: draft };
    setMessages((list) => [...list, message]);
    setDraft("");
    setError(undefined);
    setTyping(true);
    void fetcher.submit({ content: parsed.data.content }, { method: "post", action });
  }

  function fill(text: string) {
    setDraft(text);
    setError(undefined);
    input.current?.focus();
  }

  const nearLimit = draft.length > ADVISOR_MAX_MESSAGE_LENGTH - 200;

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <section
        aria-labelledby="advisor-chat-title"
        className="flex h-[600px] flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 lg:col-span-2"
      >
        <header className="flex items-center justify-between gap-3 border-b border-slate-200 px-5 py-4">
          <div className="flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-full bg-brand-100 text-brand-800">
              <Bot aria-hidden className="size-5" />
            </span>
            <div>
              <h2 id="advisor-chat-title" className="font-semibold">
                Asesor Virtual IA
              </h2>
              <p className="text-sm text-slate-600">Consultas sobre citas, tratamientos y la clínica</p>
            </div>
          </div>
          <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-emerald-50 whitespace-nowrap px-3 py-1 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-200">
            <span aria-hidden className="size-2 rounded-full bg-emerald-500" />
            En línea
          </span>
        </header>

        <div
          ref={log}
          role="log"
          aria-live="polite"
          aria-label="Conversación con el asesor virtual"
          // A scrollable region must be reachable with the keyboard (WCAG 2.1.1, axe scrollable-region-focusable).
          // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          className="relative flex-1 space-y-4 overflow-y-auto bg-slate-50/60 p-5"
        >
          {messages.map((message) => (
            <ChatBubble key={message.id} message={message} />
          ))}
          {typing && (
            <div className="flex items-end gap-2" data-testid="advisor-typing">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-800">
                <Bot aria-hidden className="size-4" />
              </span>
              <div className="flex items-center gap-1 rounded-2xl rounded-bl-sm bg-white px-4 py-3 ring-1 ring-slate-200">
                <span className="sr-only">El asesor está escribiendo...</span>
                {[0, 150, 300].map((delay) => (
                  <span
                    key={delay}
                    aria-hidden
                    className="size-2 animate-bounce rounded-full bg-slate-500 motion-reduce:animate-none"
                    style={{ animationDelay: `${delay}ms` }}
                  />
                ))}
              </div>
            </div>
          )}
        </div>

        <form
          method="post"
          action={action}
          aria-busy={busy}
          className="border-t border-slate-200 p-4"
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <div className="flex items-end gap-3">
            <label htmlFor="advisor-input" className="sr-only">
              Tu consulta
            </label>
            <textarea
              id="advisor-input"
              ref={input}
              name="content"
              rows={2}
              value={draft}
              maxLength={ADVISOR_MAX_MESSAGE_LENGTH}
              placeholder="Escribe tu consulta aquí..."
              aria-describedby="advisor-input-hint"
              aria-invalid={error ? true : undefined}
              aria-errormessage={error ? "advisor-input-error" : undefined}
              onChange={(event) => {
                setDraft(event.target.value);
                if (error) setError(undefined);
              }}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  send();
                }
              }}
              className="max-h-40 min-h-12 flex-1 resize-y rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-ink placeholder:text-slate-500 focus:border-brand-700 focus:ring-2 focus:ring-brand-700/30 focus:outline-none aria-invalid:border-red-700"
            />
            <button
              type="submit"
              disabled={busy || blank}
              aria-label="Enviar mensaje"
              className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-700 text-white transition-colors hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-50"
            >
              <Send aria-hidden className="size-5" />
            </button>
          </div>
          <div className="mt-2 flex items-start justify-between gap-3 text-xs text-slate-600">
            <p id="advisor-input-hint">Enter para enviar · Shift + Enter para una nueva línea</p>
            {nearLimit && (
              <p aria-live="polite">
                {draft.length.toLocaleString("es-CL")}/{ADVISOR_MAX_MESSAGE_LENGTH.toLocaleString("es-CL")}
              </p>
            )}
          </div>
          {error && (
            <p id="advisor-input-error" role="alert" className="mt-2 text-sm font-medium text-red-700">
              {error}
            </p>
          )}
        </form>
      </section>

      <aside className="space-y-6" aria-label="Ayuda del asesor">
        <section
          aria-labelledby="quick-actions-title"
          className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
        >
          <h2 id="quick-actions-title" className="font-semibold">
            Acciones Rápidas
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Completa tu consulta con un clic y envíala cuando quieras.
          </p>
          <div className="mt-4 space-y-2">
            {QUICK_ACTIONS.map(({ label, text, icon: Icon }) => (
              <button
                key={label}
                type="button"
                onClick={() => fill(text)}
                className="flex w-full items-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-left text-sm font-medium hover:bg-slate-50"
              >
                <Icon aria-hidden className="size-4 text-brand-700" />
                {label}
              </button>
            ))}
          </div>
        </section>

        <section
          aria-labelledby="more-help-title"
          className="rounded-2xl bg-brand-50 p-5 ring-1 ring-brand-100"
        >
          <h2 id="more-help-title" className="flex items-center gap-2 font-semibold text-brand-900">
            <HelpCircle aria-hidden className="size-5" />
            ¿Necesitas más ayuda?
          </h2>
          <p className="mt-2 text-sm text-slate-700">Nuestro equipo te atiende directamente por teléfono.</p>
          <a
            href={`tel:${phone.e164}`}
            className="mt-4 inline-flex w-full items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-800"
          >
            <Phone aria-hidden className="size-4" />
            Llamar a la Clínica
          </a>
          <p className="mt-3 text-center text-sm font-medium text-ink">{phone.display}</p>
          <p className="text-center text-sm text-slate-600">{hours}</p>
        </section>
      </aside>
    </div>
  );
}

function ChatBubble({ message }: { message: AdvisorMessageDto }) {
  const mine = message.role === "user";
  return (
    <div
      className={cn("flex items-end gap-2", mine && "flex-row-reverse")}
      data-role={message.role}
      data-type={message.type}
      data-testid="advisor-message"
    >
      <span
        className={cn(
          "flex size-8 shrink-0 items-center justify-center rounded-full",
          mine ? "bg-slate-200 text-slate-700" : "bg-brand-100 text-brand-800",
        )}
      >
        {mine ? <User aria-hidden className="size-4" /> : <Bot aria-hidden className="size-4" />}
      </span>
      <div className={cn("flex max-w-[85%] flex-col", mine ? "items-end" : "items-start")}>
        <div
          className={cn(
            "rounded-2xl px-4 py-2.5 text-sm leading-relaxed",
            mine
              ? "rounded-br-sm bg-brand-700 text-white"
              : message.type === "emergency"
                ? "rounded-bl-sm bg-red-50 text-red-950 ring-1 ring-red-200"
                : "rounded-bl-sm bg-white text-ink ring-1 ring-slate-200",
          )}
        >
          <span className="sr-only">{mine ? "Tú: " : "Asesor: "}</span>
          {/* Always text, never HTML: React escapes it, and pre-wrap keeps the line breaks. */}
          <p className="whitespace-pre-wrap break-words" data-testid="advisor-message-text">
            {message.content}
          </p>
        </div>
        <time dateTime={message.time} className="mt-1 px-1 text-xs text-slate-600">
          {message.time}
        </time>
      </div>
    </div>
  );
}

/** The notice above the chat: general queries only; emergencies go to the clinic's phone, not to a bot. */
export function AdvisorNotice({ phone }: { phone: { e164: string; display: string } }) {
  return (
    <div className="flex items-start gap-3 rounded-xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-200">
      <Info aria-hidden className="mt-0.5 size-5 shrink-0" />
      <p className="text-sm">
        Este asesor virtual responde consultas generales. Ante una emergencia dental, llama directamente a la
        clínica al{" "}
        <a href={`tel:${phone.e164}`} className="font-semibold underline underline-offset-2">
          {phone.display}
        </a>
        .
      </p>
    </div>
  );
}
