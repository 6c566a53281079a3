import { Bot, User, UserRound } from "lucide-react";
import { useEffect, useRef } from "react";
import { cn } from "~/lib/cn";
import type { ChatMessage } from "../chat-room-state";
import { AgentText } from "./agent-text";
import type { RoomPalette } from "./chat-room-theme";

const AUTHOR_LABEL: Record<ChatMessage["author"], string> = {
  guest: "Tú",
  agent: "Dentista Virtual IA",
  staff: "Equipo de la clínica",
  system: "Aviso",
};

/**
 * The conversation: what people write is rendered as text; only the agent's links to our own pages become links.
 * The agent's reply shows as a draft while a model streams it, until the stored message replaces it.
 */
export function ChatMessageList({
  messages,
  drafts,
  busy,
  scrollKey,
  textClass,
  palette,
}: {
  /** The messages to show (the whole history, or this visit's). */
  messages: ChatMessage[];
  /** Drafts by the id their stored message will have (none already stored). */
  drafts: Array<[id: string, text: string]>;
  /** A reply is streaming in (a draft not yet ended, stored or not). */
  busy: boolean;
  /** Scrolls to the newest when it changes (the count of the room's messages). */
  scrollKey: number;
  textClass: string;
  palette: RoomPalette;
}) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: "end" });
  }, [scrollKey]);

  return (
    <ol
      ref={list}
      aria-label="Mensajes"
      aria-live="polite"
      // While a reply streams in, screen readers wait: the stored reply is announced once, not every token.
      aria-busy={busy}
      className={cn("flex-1 space-y-3 overflow-y-auto p-4", palette.list)}
    >
      {messages.map((message) => (
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
                ? cn("rounded-br-sm", palette.mine)
                : cn("rounded-bl-sm", palette.bubble),
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
              <AgentText text={message.content} linkClass={palette.link} />
            ) : (
              message.content
            )}
          </div>
        </li>
      ))}
      {drafts.map(([id, text]) => (
        // Hidden from the live region: the stored message that replaces it is what gets announced.
        <li key={`draft-${id}`} data-author="agent" data-draft="true" aria-hidden="true" className="flex">
          <div
            className={cn(
              "max-w-[85%] rounded-2xl rounded-bl-sm px-3 py-2 whitespace-pre-wrap",
              textClass,
              palette.bubble,
            )}
          >
            <p className="mb-1 flex items-center gap-1 text-xs font-semibold">
              <Bot aria-hidden className="size-3" />
              {AUTHOR_LABEL.agent}
            </p>
            <AgentText text={text} linkClass={palette.link} />
            <span className="ml-0.5 inline-block animate-pulse motion-reduce:animate-none">▍</span>
          </div>
        </li>
      ))}
    </ol>
  );
}
