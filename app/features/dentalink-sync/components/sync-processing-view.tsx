import { Loader2 } from "lucide-react";
import { useEffect, useState } from "react";

/** The real wait: shown while the action calls Dentalink, with the time elapsed. */
export function ProcessingView() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 500);
    return () => clearInterval(timer);
  }, []);
  return (
    <div
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      data-testid="sync-processing"
      aria-busy="true"
    >
      <p className="flex items-center gap-2 text-lg font-semibold" role="status">
        <Loader2 aria-hidden className="size-5 animate-spin text-brand-700" />
        Sincronizando con Dentalink...
      </p>
      <div
        role="progressbar"
        aria-label="Progreso de la sincronización"
        aria-valuetext={`${seconds} segundos transcurridos`}
        className="mt-4 h-2.5 overflow-hidden rounded-full bg-slate-100"
      >
        <div className="h-2.5 w-1/3 animate-pulse rounded-full bg-brand-600" />
      </div>
      <ol className="mt-4 list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Buscamos al paciente por RUT, luego e-mail y luego teléfono.</li>
        <li>Si no existe, lo creamos en Dentalink.</li>
        <li>Creamos la cita con el dentista, la fecha y la hora elegidos.</li>
      </ol>
      <p className="mt-3 text-sm text-slate-600">{seconds} s transcurridos. No cierres esta pestaña.</p>
    </div>
  );
}
