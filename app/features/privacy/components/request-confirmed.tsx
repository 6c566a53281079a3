import { CheckCircle2 } from "lucide-react";
import { Link } from "react-router";

/** The public entry's last step: the request is confirmed and its clock runs. */
export function RequestConfirmed({ reference, dueDateLabel }: { reference: string; dueDateLabel: string }) {
  return (
    <div
      role="status"
      className="mt-8 rounded-2xl bg-brand-50 p-8 text-center"
      data-testid="request-confirmed"
    >
      <CheckCircle2 aria-hidden className="mx-auto size-12 text-brand-700" />
      <p className="mt-4 text-xl font-semibold">Confirmaste tu solicitud</p>
      <p className="mt-2 text-slate-700">
        La recibimos y te enviamos el acuse de recibo. Te responderemos a más tardar el {dueDateLabel}.
      </p>
      <p className="mt-4 text-sm text-slate-600">
        Número de solicitud: <strong className="font-mono">{reference}</strong>
      </p>
      <Link to="/" className="mt-6 inline-flex rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white">
        Volver al inicio
      </Link>
    </div>
  );
}
