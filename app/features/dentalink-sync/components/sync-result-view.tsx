import { AlertTriangle, CheckCircle2, ExternalLink, RotateCcw, XCircle } from "lucide-react";
import { Button, buttonClass } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import type { SyncResult } from "../sync-dto";
import { SYNC_SUCCESS_TITLE } from "../sync-options";

/** What a sync did: the patient's and the appointment's ids in Dentalink, or why it failed. */
export function ResultView({
  result,
  dashboardUrl,
  onNew,
  onBack,
}: {
  result: SyncResult;
  dashboardUrl: string | null;
  onNew: () => void;
  onBack?: () => void;
}) {
  return (
    <div
      className={cn(
        "rounded-2xl border p-6 shadow-sm",
        result.success ? "border-emerald-200 bg-emerald-50" : "border-red-200 bg-red-50",
      )}
      data-testid="sync-result"
    >
      <h3
        className={cn(
          "flex items-center gap-2 text-xl font-semibold",
          result.success ? "text-emerald-900" : "text-red-900",
        )}
      >
        {result.success ? (
          <CheckCircle2 aria-hidden className="size-6" />
        ) : (
          <XCircle aria-hidden className="size-6" />
        )}
        {result.success ? SYNC_SUCCESS_TITLE : result.message}
      </h3>
      <p className="mt-2 text-slate-800" role="status">
        {result.success ? result.message : "La sincronización no se completó."}
      </p>
      {(result.patientId || result.appointmentId) && (
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {result.patientId && (
            <>
              <dt className="font-medium text-slate-700">ID de paciente</dt>
              <dd data-testid="sync-patient-id">{result.patientId}</dd>
            </>
          )}
          {result.appointmentId && (
            <>
              <dt className="font-medium text-slate-700">ID de cita</dt>
              <dd data-testid="sync-appointment-id">{result.appointmentId}</dd>
            </>
          )}
        </dl>
      )}
      {result.errors.length > 0 && (
        <div className="mt-4">
          <p className="flex items-center gap-1 font-medium text-red-900">
            <AlertTriangle aria-hidden className="size-4" />
            Errores
          </p>
          <ul className="mt-1 list-disc pl-5 text-red-900" data-testid="sync-result-errors">
            {result.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="mt-6 flex flex-wrap gap-3">
        {dashboardUrl && (
          <a
            href={dashboardUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClass("secondary")}
          >
            <ExternalLink aria-hidden className="size-4" />
            Ver en Dentalink<span className="sr-only"> (se abre en otra pestaña)</span>
          </a>
        )}
        {onBack && (
          <Button type="button" variant="secondary" onClick={onBack}>
            Volver al formulario
          </Button>
        )}
        <Button type="button" variant="primary" onClick={onNew}>
          <RotateCcw aria-hidden className="size-4" />
          Nueva Sincronización
        </Button>
      </div>
    </div>
  );
}
