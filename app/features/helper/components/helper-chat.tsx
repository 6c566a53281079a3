import { MessageCircle, Send } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { formatChileanPhone, formatClinicTime } from "~/domain/format";
import { waMeLink } from "~/domain/lead-messages";
import { helperReply, WHATSAPP_PREFILLED_MESSAGE } from "~/domain/helper-replies";
import { useAppData } from "~/lib/app-data";
import { cn } from "~/lib/cn";

export const HELPER_REPLY_DELAY_MS = 1500;

interface HelperMessage {
  id: number;
  content: string;
  sender: "user" | "bot";
  timestamp: Date;
  highlighted?: boolean;
}

export function HelperChat() {
  const { clinic } = useAppData();
  const [messages, setMessages] = useState<HelperMessage[]>(() => [
    {
      id: 0,
      sender: "bot",
      timestamp: new Date(),
      content: "¡Hola! Soy Rio, el asistente de la clínica. ¿En qué te puedo ayudar hoy?",
    },
  ]);
  const [draft, setDraft] = useState("");
  const [typing, setTyping] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => input.current?.focus(), []);
  useEffect(() => () => clearTimeout(pending.current), []);
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [messages, typing]);

  const facts = {
    phone: formatChileanPhone(clinic.phone),
    mobile: formatChileanPhone(clinic.mobile),
    hours: clinic.hoursInSentence,
    emergencyNumber: clinic.emergencyNumber,
  };

  function send() {
    const content = draft.trim();
    if (!content || typing) return;
    setMessages((list) => [...list, { id: list.length, sender: "user", content, timestamp: new Date() }]);
    setDraft("");
    setTyping(true);
    pending.current = setTimeout(() => {
      const reply = helperReply(content, facts);
      setMessages((list) => [
        ...list,
        { id: list.length, sender: "bot", content: reply.text, timestamp: new Date(), highlighted: true },
      ]);
      setTyping(false);
    }, HELPER_REPLY_DELAY_MS);
  }

  const whatsappHref = waMeLink(clinic.mobile, WHATSAPP_PREFILLED_MESSAGE);

  return (
    <div className="flex h-[26rem] flex-col">
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
        <p className="text-sm font-semibold">Rio</p>
        <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
          Instant response
        </span>
      </div>
      <div
        ref={log}
        role="log"
        aria-live="polite"
        aria-label="Conversación con Rio"
        className="flex-1 space-y-3 overflow-y-auto p-4"
      >
        {messages.map((message) => (
          <div
            key={message.id}
            className={cn("flex flex-col", message.sender === "user" ? "items-end" : "items-start")}
            data-sender={message.sender}
          >
            <p
              className={cn(
                "max-w-[85%] whitespace-pre-wrap rounded-2xl px-3 py-2 text-sm",
                message.sender === "user" ? "bg-brand-700 text-white" : "bg-slate-100 text-ink",
                message.highlighted && "ring-2 ring-amber-400",
              )}
              data-testid={message.sender === "bot" ? "helper-bot-message" : "helper-user-message"}
            >
              {message.content}
            </p>
            <time className="mt-1 text-xs text-slate-600" dateTime={message.timestamp.toISOString()}>
              {formatClinicTime(message.timestamp)}
            </time>
          </div>
        ))}
        {typing && (
          <p className="text-sm text-slate-600" role="status">
            Rio está escribiendo...
          </p>
        )}
      </div>
      <form
        className="flex items-end gap-2 border-t border-slate-200 p-3"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label htmlFor="helper-input" className="sr-only">
          Tu consulta para Rio
        </label>
        <textarea
          id="helper-input"
          ref={input}
          rows={1}
          value={draft}
          maxLength={2000}
          disabled={typing}
          placeholder="Escribe tu consulta..."
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              send();
            }
          }}
          className="max-h-24 flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-700 focus:outline-none"
        />
        <button
          type="submit"
          disabled={typing || !draft.trim()}
          aria-label="Enviar"
          className="rounded-lg bg-brand-700 p-2.5 text-white hover:bg-brand-800 disabled:opacity-50"
        >
          <Send aria-hidden className="size-4" />
        </button>
      </form>
      <a
        href={whatsappHref}
        target="_blank"
        rel="noopener noreferrer"
        className="mx-3 mb-3 inline-flex items-center justify-center gap-2 rounded-lg bg-[#075E54] px-3 py-2 text-sm font-semibold text-white hover:bg-[#054238]"
      >
        <MessageCircle aria-hidden className="size-4" /> Escríbenos por WhatsApp
      </a>
    </div>
  );
}
