import { Clock, MessageCircle, Phone, Smartphone } from "lucide-react";
import { Modal } from "~/components/ui/dialog";
import { formatChileanPhone } from "~/domain/format";
import { waMeLink } from "~/domain/lead-messages";
import { useAppData } from "~/lib/app-data";

const WHATSAPP_TEXT = "Hola, les escribo desde el portal de pacientes por mis citas.";

const linkClass =
  "flex items-center gap-3 rounded-lg border border-slate-300 p-3 font-medium text-ink hover:border-brand-700 " +
  "hover:bg-brand-50";

/** 'Contactar Clínica': call the clinic (landline or mobile) or write on WhatsApp. */
export function ContactDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { clinic } = useAppData();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Contactar a la clínica"
      description="Para confirmar, cambiar o consultar por tus citas."
      testId="contact-dialog"
    >
      <ul className="space-y-2">
        <ContactLink
          href={`tel:${clinic.phone}`}
          icon={<Phone aria-hidden className="size-5 text-brand-700" />}
        >
          Llamar a la clínica
          <ContactDetail>{formatChileanPhone(clinic.phone)}</ContactDetail>
        </ContactLink>
        <ContactLink
          href={`tel:${clinic.mobile}`}
          icon={<Smartphone aria-hidden className="size-5 text-brand-700" />}
        >
          Llamar al celular
          <ContactDetail>{formatChileanPhone(clinic.mobile)}</ContactDetail>
        </ContactLink>
        <ContactLink
          href={waMeLink(clinic.mobile, WHATSAPP_TEXT)}
          icon={<MessageCircle aria-hidden className="size-5 text-emerald-700" />}
          external
        >
          Escribir por WhatsApp
          <ContactDetail>
            {formatChileanPhone(clinic.mobile)}{" "}
            <span className="sr-only">(se abre en una pestaña nueva)</span>
          </ContactDetail>
        </ContactLink>
      </ul>
      <p className="mt-4 flex items-start gap-2 text-sm text-slate-700">
        <Clock aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>
          {clinic.hoursLong}. {clinic.saturday}.
        </span>
      </p>
    </Modal>
  );
}

function ContactLink({
  href,
  icon,
  external = false,
  children,
}: {
  href: string;
  icon: React.ReactNode;
  external?: boolean;
  children: React.ReactNode;
}) {
  return (
    <li>
      <a
        href={href}
        className={linkClass}
        {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
      >
        {icon}
        <span>{children}</span>
      </a>
    </li>
  );
}

function ContactDetail({ children }: { children: React.ReactNode }) {
  return <span className="block text-sm font-normal text-slate-700">{children}</span>;
}
