import { agentTextSegments } from "~/domain/agent-safety";
import { cn } from "~/lib/cn";

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
