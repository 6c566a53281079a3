import { Prepared } from "~/lib/prepared-markup";
import { Clock, Mail, MapPin, Phone, Smartphone } from "~/components/static-icons";
import { formatChileanPhone } from "~/domain/format";
import { useAppData } from "~/lib/app-data";
import { PortalLink } from "./portal-link";

export function ContactSection() {
  const { clinic, user } = useAppData();
  const { phone, mobile, adminEmail, address, hoursShort } = clinic;
  return (
    <Prepared
      as="section"
      attributes={{
        id: "contacto",
        "aria-labelledby": "contacto-titulo",
        className: "scroll-mt-20 bg-white py-20",
      }}
      name="contact"
      content={ContactContent}
      props={{ phone, mobile, adminEmail, address, hoursShort, signedIn: user !== null }}
    />
  );
}

interface ContactProps {
  phone: string;
  mobile: string;
  adminEmail: string;
  address: string;
  hoursShort: string;
  signedIn: boolean;
}

/** Prepared markup (ADR 055): renders from its props alone. */
function ContactContent({ signedIn, ...clinic }: ContactProps) {
  const items = [
    { icon: Phone, label: "Teléfono", value: formatChileanPhone(clinic.phone), href: `tel:${clinic.phone}` },
    {
      icon: Smartphone,
      label: "Celular y WhatsApp",
      value: formatChileanPhone(clinic.mobile),
      href: `tel:${clinic.mobile}`,
    },
    { icon: Mail, label: "E-mail", value: clinic.adminEmail, href: `mailto:${clinic.adminEmail}` },
    { icon: MapPin, label: "Dirección", value: clinic.address },
    { icon: Clock, label: "Horario", value: clinic.hoursShort },
  ];
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 lg:grid-cols-2">
      <div>
        <h2 id="contacto-titulo" className="text-3xl font-bold">
          Contacto
        </h2>
        <ul className="mt-8 space-y-5">
          {items.map(({ icon: Icon, label, value, href }) => (
            <li key={label} className="flex items-start gap-4">
              <span className="rounded-xl bg-brand-50 p-3 text-brand-700">
                <Icon className="size-5" />
              </span>
              <span>
                <span className="block text-sm text-slate-600">{label}</span>
                {href ? (
                  <a href={href} className="font-semibold text-ink hover:text-brand-700">
                    {value}
                  </a>
                ) : (
                  <span className="font-semibold">{value}</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-col justify-center rounded-2xl bg-ink p-8 text-white">
        <h3 className="text-2xl font-bold">Accede a tu Portal IA</h3>
        <p className="mt-3 text-slate-200">
          Revisa tus citas, documentos, radiografías y pagos, y conversa con nuestro asesor virtual las 24
          horas.
        </p>
        <PortalLink
          signedIn={signedIn}
          className="mt-6 inline-flex w-fit rounded-lg bg-white px-6 py-3 font-semibold text-ink hover:bg-brand-50"
          signedInLabel="Ir a Mi Portal"
          anonymousLabel="Iniciar Sesión"
        />
      </div>
    </div>
  );
}
