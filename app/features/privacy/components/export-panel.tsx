import { Download, FileArchive } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useFetcher, useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import type { DataExportView, ExportPanelData } from "../data-export-dto";
import { DATA_EXPORTS_PATH, type MyDataPath } from "../data-export-paths";

/** How often the panel asks for the progress of the export being built. */
const POLL_MS = 1_500;

/**
 * 'Descargar mis datos' (access and portability, ADR 037) as a card with its own heading, for a page of its own.
 * Mis Datos has the heading and card already: it takes `ExportPanelContent`.
 */
export function ExportPanel({ data, returnTo }: { data: ExportPanelData; returnTo: MyDataPath }) {
  return (
    <section
      aria-labelledby="descargar-mis-datos"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="descargar-mis-datos" className="flex items-center gap-2 text-xl font-semibold">
        <FileArchive aria-hidden className="size-6 text-brand-700" />
        Descargar mis datos
      </h2>
      <ExportPanelContent data={data} returnTo={returnTo} />
    </section>
  );
}

/**
 * What 'Descargar mis datos' holds under its heading: the button posts a plain form (it works without JavaScript:
 * the page comes back with the export queued), the export's progress is polled while it is built, then the download
 * link with its expiry; the person's previous exports below. `returnTo` is the page the form post comes back to.
 */
export function ExportPanelContent({ data, returnTo }: { data: ExportPanelData; returnTo: MyDataPath }) {
  const active = data.active;
  return (
    <>
      <p className="mt-2 text-slate-700">
        Prepararemos un archivo ZIP con todos los datos que la clínica guarda sobre ti: un archivo{" "}
        <span className="font-mono">datos.json</span>, que puedes llevar a otro servicio, y un resumen en PDF.
        Queda disponible 7 días y solo tú puedes descargarlo.
      </p>

      {active ? (
        <ActiveExport key={active.id} initial={active} returnTo={returnTo} />
      ) : (
        <Form method="post" action={DATA_EXPORTS_PATH} reloadDocument className="mt-4">
          <input type="hidden" name="returnTo" value={returnTo} />
          <Button type="submit" disabled={!data.canRequest}>
            <Download aria-hidden className="size-5" />
            Descargar mis datos
          </Button>
          {data.limitMessage && (
            <p role="status" className="mt-3 rounded-lg bg-amber-50 p-3 text-amber-900">
              {data.limitMessage}
            </p>
          )}
        </Form>
      )}

      <ReadyExport item={data.exports.find((item) => item.status === "ready") ?? null} />

      {data.exports.length > 0 && <ExportHistory items={data.exports} />}
    </>
  );
}

/** The export being built: its progress, polled until it is ready (or failed); then the page's data is reloaded. */
function ActiveExport({ initial, returnTo }: { initial: DataExportView; returnTo: MyDataPath }) {
  const fetcher = useFetcher<DataExportView>();
  const { load, state } = fetcher;
  const { revalidate } = useRevalidator();
  const current = fetcher.data ?? initial;
  const finished = current.status !== "queued" && current.status !== "running";
  const reloaded = useRef(false);

  useEffect(() => {
    if (finished) {
      // Once: the page's data then lists the ready export with its link.
      if (!reloaded.current) {
        reloaded.current = true;
        void revalidate();
      }
      return;
    }
    if (state !== "idle") return;
    const timer = setTimeout(() => void load(initial.statusUrl), POLL_MS);
    return () => clearTimeout(timer);
  }, [finished, state, current, initial.statusUrl, load, revalidate]);

  const step = current.step ?? current.statusLabel;
  return (
    <div className="mt-4 space-y-2">
      <p id="progreso-exportacion" className="font-medium">
        {finished ? current.statusLabel : `Preparando tu archivo… ${current.progress} %`}
      </p>
      <div
        role="progressbar"
        aria-labelledby="progreso-exportacion"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={current.progress}
        aria-valuetext={`${current.progress} %: ${step}`}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-brand-700 transition-[width]"
          style={{ width: `${current.progress}%` }}
        />
      </div>
      <p aria-live="polite" className="text-sm text-slate-700">
        {finished && current.message ? current.message : `Paso actual: ${step}`}
      </p>
      <p className="text-sm text-slate-600">
        Puedes dejar esta página: el archivo se sigue preparando y quedará aquí.{" "}
        <a href={returnTo} className="font-semibold text-brand-700 underline">
          Actualizar estado
        </a>
      </p>
    </div>
  );
}

function ReadyExport({ item }: { item: DataExportView | null }) {
  if (!item?.downloadUrl) return null;
  return (
    <div role="status" className="mt-4 rounded-lg bg-brand-50 p-4 text-brand-900">
      <p className="font-semibold">Tu archivo está listo.</p>
      <a
        href={item.downloadUrl}
        download
        className="mt-2 inline-flex items-center gap-2 font-semibold underline"
      >
        <Download aria-hidden className="size-5" />
        Descargar archivo ZIP{item.sizeLabel ? ` (${item.sizeLabel})` : ""}
      </a>
      {item.expiresLabel && <p className="mt-1 text-sm">Disponible hasta el {item.expiresLabel}.</p>}
    </div>
  );
}

function ExportHistory({ items }: { items: DataExportView[] }) {
  return (
    <div className="mt-6">
      <h3 className="font-semibold">Descargas anteriores</h3>
      <ul className="mt-2 divide-y divide-slate-200">
        {items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2 text-sm">
            <span>Pedida el {item.requestedLabel}</span>
            <span className="text-slate-700">
              {item.statusLabel}
              {item.expiresLabel ? ` · disponible hasta el ${item.expiresLabel}` : ""}
              {item.status === "expired" || item.status === "failed" ? ` · ${item.message}` : ""}
            </span>
            {item.downloadUrl && (
              <a href={item.downloadUrl} download className="font-semibold text-brand-700 underline">
                Descargar<span className="sr-only"> la descarga pedida el {item.requestedLabel}</span>
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
