import { CircleHelp, X } from "lucide-react";
import { useRef } from "react";
import { formatChileanPhone } from "~/domain/format";
import { useAppData } from "~/lib/app-data";

/** spec 000 §2: the help dialog 'Guía de Acceso al Portal' (native <dialog>: focus kept inside, Escape closes). */
export function AccessHelpDialog({ label }: { label: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { clinic } = useAppData();
  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50"
        aria-haspopup="dialog"
      >
        <CircleHelp aria-hidden className="size-4" /> {label}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="guia-acceso-titulo"
        className="m-auto w-[min(40rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-ink/60"
      >
        <div className="max-h-[85vh] overflow-y-auto p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id="guia-acceso-titulo" className="text-xl font-bold">
              Guía de Acceso al Portal
            </h2>
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className="rounded p-1 hover:bg-slate-100"
              aria-label="Cerrar guía"
            >
              <X aria-hidden className="size-5" />
            </button>
          </div>
          <h3 className="mt-5 font-semibold">Si eres paciente nuevo</h3>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
            <li>Ve a «Registrarse» (el enlace al final del formulario).</li>
            <li>Completa tu nombre, apellido, correo electrónico y teléfono.</li>
            <li>Crea una contraseña de al menos 8 caracteres, con letras y números.</li>
            <li>Confirma tu correo con el enlace que te enviaremos.</li>
          </ol>
          <h3 className="mt-5 font-semibold">Si ya eres paciente</h3>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
            <li>Ingresa tu correo electrónico y tu contraseña.</li>
            <li>Si no la recuerdas, usa «¿Olvidaste tu contraseña?» y te enviaremos un enlace.</li>
          </ol>
          <h3 className="mt-5 font-semibold">¿Problemas para ingresar?</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
            <li>Revisa que tu correo esté bien escrito.</li>
            <li>Revisa tu contraseña (mayúsculas y minúsculas cuentan).</li>
            <li>Si eres nuevo, regístrate primero.</li>
            <li>Confirma tu correo con el enlace que te enviamos.</li>
          </ul>
          <h3 className="mt-5 font-semibold">Contacto</h3>
          <p className="mt-2 text-sm text-slate-700">
            Teléfono:{" "}
            <a className="font-medium text-brand-700 underline" href={`tel:${clinic.phone}`}>
              {formatChileanPhone(clinic.phone)}
            </a>
            <br />
            Correo:{" "}
            <a className="font-medium text-brand-700 underline" href={`mailto:${clinic.email}`}>
              {clinic.email}
            </a>
            <br />
            Horario: lunes a viernes, {clinic.hoursRange}
          </p>
        </div>
      </dialog>
    </>
  );
}
