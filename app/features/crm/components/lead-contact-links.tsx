import { MessageCircle, PhoneCall } from "lucide-react";
import { cn } from "~/lib/cn";
import type { LeadContact } from "../lead-list-dto";

/**
 * The card actions 'WhatsApp' (wa.me with the prefilled greeting, new tab) and 'Llamar' (tel:), on
 * the lead panel's cards and the lead page. `button` is the caller's button shape; the colours are per background.
 */
export function LeadContactLinks({
  lead,
  button,
  whatsappClass,
  callClass,
}: {
  lead: Pick<LeadContact, "whatsappHref" | "phoneHref" | "firstName">;
  button: string;
  whatsappClass: string;
  callClass: string;
}) {
  return (
    <>
      <a
        href={lead.whatsappHref}
        target="_blank"
        rel="noopener noreferrer"
        className={cn(button, "text-white", whatsappClass)}
      >
        <MessageCircle aria-hidden className="size-4" />
        WhatsApp<span className="sr-only"> a {lead.firstName} (se abre en otra pestaña)</span>
      </a>
      <a href={lead.phoneHref} className={cn(button, "text-white", callClass)}>
        <PhoneCall aria-hidden className="size-4" />
        Llamar<span className="sr-only"> a {lead.firstName}</span>
      </a>
    </>
  );
}
