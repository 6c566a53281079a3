import { Clock, MessageCircle, Phone, Smartphone } from "lucide-react";
import { Modal } from "~/components/ui/dialog";
import { formatChileanPhone, whatsappNumber } from "~/domain/format";
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
        <li>
          <a href={`tel:${clinic.phone}`} className={linkClass}>
            <Phone aria-hidden className="size-5 text-brand-700" />
            <span>
              Llamar a la clínica
              <span className="block text-sm font-normal text-slate-700">
                {formatChileanPhone(clinic.phone)}
              </span>
            </span>
          </a>
        </li>
        <li>
          <a href={`tel:${clinic.mobile}`} className={linkClass}>
            <Smartphone aria-hidden className="size-5 text-brand-700" />
            <span>
              Llamar al celular
              <span className="block text-sm font-normal text-slate-700">
                {formatChileanPhone(clinic.mobile)}
              </span>
            </span>
          </a>
        </li>
        <li>
          <a
            href={`https://wa.me/${whatsappNumber(clinic.mobile)}?text=${encodeURIComponent(WHATSAPP_TEXT)}`}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClass}
          >
            <MessageCircle aria-hidden className="size-5 text-emerald-700" />
            <span>
              Escribir por WhatsApp
              <span className="block text-sm font-normal text-slate-700">
                {formatChileanPhone(clinic.mobile)}{" "}
                <span className="sr-only">(se abre en una pestaña nueva)</span>
              </span>
            </span>
          </a>
        </li>
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
