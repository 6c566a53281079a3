import { useState } from "react";
import { useActionData, useFetcher } from "react-router";
import type { SyncActionData, SyncPrefill, SyncTabData } from "../sync-dto";
import { DentistLinks } from "./dentist-links-panel";
import { FailedWriteThroughs } from "./failed-write-throughs-panel";
import { SyncForm } from "./sync-form";
import { ProcessingView } from "./sync-processing-view";
import { ResultView } from "./sync-result-view";

function newSubmissionId(): string {
  return crypto.randomUUID();
}

/**
 * The sync tab (ADR 019): the form, then the processing view while the real call runs, then the
 * result. The form stays mounted (hidden) during the other views, so a failed sync can go back to it with the
 * values kept; 'Nueva Sincronización' mounts a fresh, empty one with a new idempotency key.
 */
export function DentalinkSyncTab({ data }: { data: SyncTabData }) {
  const fetcher = useFetcher<SyncActionData>({ key: "dentalink-sync" });
  // Without JavaScript the form posts as a document and the page comes back with the answer.
  const documentResult = useActionData<SyncActionData>();
  const [formKey, setFormKey] = useState(0);
  const [prefill, setPrefill] = useState<SyncPrefill | null>(data.prefill);
  const [submissionId, setSubmissionId] = useState(data.submissionId);
  const [closed, setClosed] = useState<SyncActionData | undefined>(undefined);

  const latest = fetcher.data ?? documentResult;
  const busy = fetcher.state !== "idle";
  const shown = latest === closed ? undefined : latest;
  const result = shown?.ok ? shown.data.result : null;
  const view: "form" | "processing" | "result" = busy ? "processing" : result ? "result" : "form";

  function startOver() {
    setClosed(latest);
    setPrefill(null);
    setSubmissionId(newSubmissionId());
    setFormKey((key) => key + 1);
  }

  function backToForm() {
    // The values stay; a new key makes the retry a new submission (the failed one keeps its stored result).
    setClosed(latest);
    setSubmissionId(newSubmissionId());
  }

  return (
    <section aria-labelledby="dentalink-sync" className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="dentalink-sync" className="text-xl font-semibold">
            Sincronizar con Dentalink
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            Busca al paciente en Dentalink por RUT, e-mail y teléfono (lo reutiliza si ya existe) y crea su
            cita.
          </p>
        </div>
        {data.mode === "mock" && (
          <p
            className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900"
            data-testid="dentalink-mode"
          >
            Modo demostración
          </p>
        )}
      </div>

      {view === "processing" && <ProcessingView />}
      {view === "result" && result && (
        <ResultView
          result={result}
          dashboardUrl={data.dashboardUrl}
          onNew={startOver}
          onBack={result.success ? undefined : backToForm}
        />
      )}

      {data.failedWriteThroughs.length > 0 && <FailedWriteThroughs items={data.failedWriteThroughs} />}
      {data.dentistLinks.length > 0 && (
        <DentistLinks links={data.dentistLinks} dentists={data.dentists} canEdit={data.canEditLinks} />
      )}

      <div hidden={view !== "form"}>
        <SyncForm
          key={formKey}
          data={data}
          prefill={prefill}
          submissionId={submissionId}
          answer={shown}
          fetcher={fetcher}
        />
      </div>
    </section>
  );
}
