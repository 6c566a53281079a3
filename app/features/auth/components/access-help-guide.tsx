import { Modal } from "~/components/ui/dialog";
import { formatChileanPhone } from "~/domain/format";
import { useAppData } from "~/lib/app-data";

/** The help dialog 'Guía de Acceso al Portal', with the steps the clinic's specification gives. */
export function AccessHelpGuide({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { clinic } = useAppData();
  return (
    <Modal open={open} onClose={onClose} title="Guía de Acceso al Portal" closeLabel="Cerrar guía">
      <h3 className="font-semibold">Si eres paciente nuevo</h3>
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
    </Modal>
  );
}
