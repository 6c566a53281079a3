import { AlertTriangle, CheckCircle2, ExternalLink, Loader2, RotateCcw, XCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { FormAlert, InputField, SelectField, TextareaField } from "~/components/form-fields";
import { Button, buttonClass } from "~/components/ui/button";
import { RUT_MAX_LENGTH, formatRut } from "~/domain/rut";
import { cn } from "~/lib/cn";
import { useValidatedForm } from "~/lib/validated-form";
import { formatClinicDateTime } from "~/domain/format";
import type { ActionResult } from "~/lib/action-result";
import type {
  DentistLinkView,
  FailedWriteThroughView,
  SyncDentistOption,
  SyncActionData,
  SyncPrefill,
  SyncResult,
  SyncTabData,
} from "../sync-dto";
import {
  DENTIST_LINK_INTENT,
  NO_DENTALINK_DENTIST,
  WRITE_THROUGH_RETRY_INTENT,
  SYNC_INTENT,
  SYNC_OVERALL_MESSAGE,
  SYNC_SUCCESS_TITLE,
  syncAppointmentTimes,
  syncFormFields,
  syncTreatmentLabels,
  syncTreatmentTypes,
} from "../sync-options";

const loadSyncSchema = () => import("../sync-schema").then((module) => module.syncActionSchema);

function newSubmissionId(): string {
  return crypto.randomUUID();
}

/**
 * The sync tab (spec 001 §2, §3, §4): the form, then the processing view while the real call runs, then the
 * result. The form stays mounted (hidden) during the other views, so a failed sync can go back to it with the
 * values kept; 'Nueva Sincronizacion' mounts a fresh, empty one with a new idempotency key.
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

type SyncFetcher = ReturnType<typeof useFetcher<SyncActionData>>;

function SyncForm({
  data,
  prefill,
  submissionId,
  answer,
  fetcher,
}: {
  data: SyncTabData;
  prefill: SyncPrefill | null;
  submissionId: string;
  answer: SyncActionData | undefined;
  fetcher: SyncFetcher;
}) {
  const form = useValidatedForm(loadSyncSchema, answer);
  const messages = syncFormFields
    .map((field) => form.error(field))
    .filter((message): message is string => Boolean(message));
  const refusal = answer && !answer.ok && !answer.fieldErrors ? answer.message : undefined;

  return (
    <fetcher.Form
      method="post"
      noValidate
      {...form.formProps}
      className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-2"
      aria-labelledby="dentalink-sync"
    >
      <input type="hidden" name="intent" value={SYNC_INTENT} />
      <input type="hidden" name="submissionId" value={submissionId} />
      <input type="hidden" name="leadId" value={prefill?.leadId ?? ""} />

      {prefill && (
        <p
          className="rounded-lg bg-brand-50 p-3 text-sm text-brand-900 sm:col-span-2"
          data-testid="sync-lead"
        >
          Agendando al lead <strong>{prefill.leadName}</strong>. Al sincronizar, el lead quedará como
          «Agendado».
        </p>
      )}

      {messages.length > 0 && (
        <div role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 sm:col-span-2">
          <p className="font-semibold">{SYNC_OVERALL_MESSAGE}</p>
          <ul className="mt-1 list-disc pl-5" data-testid="sync-errors">
            {messages.map((message, index) => (
              <li key={`${index}-${message}`}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      <FormAlert message={refusal} className="sm:col-span-2" />
      {data.dentistsError && <FormAlert message={data.dentistsError} className="sm:col-span-2" />}

      <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
        <legend className="mb-2 text-base font-semibold text-ink">Paciente</legend>
        <InputField
          label="Nombre"
          name="firstName"
          autoComplete="off"
          maxLength={100}
          required
          defaultValue={prefill?.firstName}
          error={form.error("firstName")}
        />
        <InputField
          label="Apellido"
          name="lastName"
          autoComplete="off"
          maxLength={100}
          required
          defaultValue={prefill?.lastName}
          error={form.error("lastName")}
        />
        <InputField
          label="RUT (opcional)"
          name="rut"
          autoComplete="off"
          placeholder="12.345.678-5"
          maxLength={RUT_MAX_LENGTH}
          onInput={(event) => {
            const input = event.currentTarget;
            input.value = formatRut(input.value);
          }}
          error={form.error("rut")}
        />
        <InputField
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          maxLength={254}
          required
          defaultValue={prefill?.email}
          error={form.error("email")}
        />
        <InputField
          label="Teléfono"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          placeholder="+56 9 1234 5678"
          maxLength={30}
          required
          defaultValue={prefill?.phone}
          error={form.error("phone")}
        />
        <InputField
          label="Fecha de nacimiento"
          name="birthDate"
          type="date"
          max={data.today}
          required
          error={form.error("birthDate")}
        />
        <InputField
          label="Dirección (opcional)"
          name="address"
          autoComplete="off"
          maxLength={200}
          error={form.error("address")}
        />
        <InputField
          label="Ciudad (opcional)"
          name="city"
          autoComplete="off"
          maxLength={100}
          error={form.error("city")}
        />
        <InputField
          label="Previsión (opcional)"
          name="insuranceProvider"
          autoComplete="off"
          maxLength={100}
          hint="Fonasa, Isapre u otra."
          error={form.error("insuranceProvider")}
        />
        <InputField
          label="Contacto de emergencia (opcional)"
          name="emergencyContact"
          autoComplete="off"
          maxLength={200}
          error={form.error("emergencyContact")}
        />
        <TextareaField
          label="Antecedentes médicos (opcional)"
          name="medicalHistory"
          rows={3}
          maxLength={2000}
          hint="Se envían a Dentalink con la cita; no se guardan en el registro de sincronizaciones."
          className="sm:col-span-2"
          error={form.error("medicalHistory")}
        />
      </fieldset>

      <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
        <legend className="mb-2 text-base font-semibold text-ink">Cita</legend>
        <SelectField
          label="Tipo de tratamiento"
          name="treatmentType"
          required
          defaultValue={prefill?.treatmentType ?? ""}
          error={form.error("treatmentType")}
        >
          <option value="">Selecciona un tratamiento</option>
          {syncTreatmentTypes.map((value) => (
            <option key={value} value={value}>
              {syncTreatmentLabels[value]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Dentista"
          name="dentistId"
          required
          defaultValue=""
          error={form.error("dentistId")}
        >
          <option value="">Selecciona un dentista</option>
          {data.dentists.map((dentist) => (
            <option key={dentist.id} value={dentist.id}>
              {dentist.specialty ? `${dentist.name} (${dentist.specialty})` : dentist.name}
            </option>
          ))}
        </SelectField>
        <InputField
          label="Fecha de cita"
          name="appointmentDate"
          type="date"
          min={data.today}
          required
          error={form.error("appointmentDate")}
        />
        <SelectField
          label="Hora de cita"
          name="appointmentTime"
          required
          defaultValue=""
          error={form.error("appointmentTime")}
        >
          <option value="">Selecciona una hora</option>
          {syncAppointmentTimes.map((time) => (
            <option key={time} value={time}>
              {time}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label="Notas (opcional)"
          name="notes"
          rows={3}
          maxLength={1000}
          className="sm:col-span-2"
          error={form.error("notes")}
        />
      </fieldset>

      <Button type="submit" variant="accent" className="sm:col-span-2">
        Sincronizar con Dentalink
      </Button>
    </fetcher.Form>
  );
}

/** The real wait: shown while the action calls Dentalink, with the time elapsed. */
function ProcessingView() {
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

function ResultView({
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
          Nueva Sincronizacion
        </Button>
      </div>
    </div>
  );
}

const writeThroughActions: Record<FailedWriteThroughView["action"], string> = {
  book: "Reserva",
  reschedule: "Cambio de hora",
  cancel: "Cancelación",
};

/**
 * Portal bookings Dentalink did not take (issue 10): those that failed for good (staff enter them by hand, or fix
 * the cause — e.g. a dentist's link — and retry) and those the outbox is still retrying after a failure.
 */
function FailedWriteThroughs({ items }: { items: FailedWriteThroughView[] }) {
  return (
    <section
      aria-labelledby="dentalink-writethrough-failed"
      className="rounded-lg border border-red-200 bg-red-50 p-4"
      data-testid="dentalink-writethrough-failed"
    >
      <h3 id="dentalink-writethrough-failed" className="flex items-center gap-2 font-semibold text-red-900">
        <AlertTriangle aria-hidden className="size-4" />
        Citas del portal que no llegaron a Dentalink
      </h3>
      <ul className="mt-2 space-y-3 text-sm text-red-900">
        {items.map((item) => (
          <FailedWriteThrough key={item.id} item={item} />
        ))}
      </ul>
    </section>
  );
}

function FailedWriteThrough({ item }: { item: FailedWriteThroughView }) {
  const fetcher = useFetcher<ActionResult<{ outboxId: string }>>();
  const answer = fetcher.data;
  const who = [item.patientName, item.dentistName ? `con ${item.dentistName}` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <li data-testid="writethrough-item" data-state={item.state} className="rounded-md bg-white/70 p-3">
      <p>
        <strong>{writeThroughActions[item.action]}</strong> del{" "}
        {formatClinicDateTime(new Date(item.startsAt))}
        {who ? ` · ${who}` : ""}
      </p>
      <p className="mt-1 font-medium" data-testid="writethrough-state">
        {item.state === "failed"
          ? "Falló: no se reintentará sola."
          : `Reintentando (intento ${item.attempts} de ${item.maxAttempts})${
              item.nextAttemptAt
                ? `; próximo intento ${formatClinicDateTime(new Date(item.nextAttemptAt))}`
                : ""
            }.`}
      </p>
      <p className="mt-1" data-testid="writethrough-reason">
        {item.reason}
      </p>
      <fetcher.Form method="post" className="mt-2 flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value={WRITE_THROUGH_RETRY_INTENT} />
        <input type="hidden" name="outboxId" value={item.id} />
        <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
          <RotateCcw aria-hidden className="size-4" />
          Reintentar ahora
          <span className="sr-only">
            {" "}
            {writeThroughActions[item.action].toLowerCase()} del{" "}
            {formatClinicDateTime(new Date(item.startsAt))}
          </span>
        </Button>
        {answer && (
          <span role="status" className={answer.ok ? "text-emerald-900" : "text-red-900"}>
            {answer.message}
          </span>
        )}
      </fetcher.Form>
    </li>
  );
}

const linkSources: Record<NonNullable<DentistLinkView["source"]>, string> = {
  name: "por nombre",
  admin: "por un administrador",
};

/**
 * Which Dentalink dentist each of ours books into: linked once by name, editable by an admin. A dentist without a
 * link gets no write-through (its bookings appear above with the reason) instead of another dentist's agenda.
 */
function DentistLinks({
  links,
  dentists,
  canEdit,
}: {
  links: DentistLinkView[];
  dentists: SyncDentistOption[];
  canEdit: boolean;
}) {
  return (
    <section
      aria-labelledby="dentalink-dentist-links"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="dentalink-dentist-links"
    >
      <h3 id="dentalink-dentist-links" className="text-lg font-semibold">
        Dentistas del portal en Dentalink
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        Las citas de Mis Citas se envían a la agenda del dentista vinculado.
        {canEdit ? "" : " Solo un administrador puede cambiar los vínculos."}
      </p>
      <ul className="mt-3 divide-y divide-slate-200">
        {links.map((link) => (
          <DentistLinkRow key={link.dentistId} link={link} dentists={dentists} canEdit={canEdit} />
        ))}
      </ul>
    </section>
  );
}

function DentistLinkRow({
  link,
  dentists,
  canEdit,
}: {
  link: DentistLinkView;
  dentists: SyncDentistOption[];
  canEdit: boolean;
}) {
  const fetcher = useFetcher<ActionResult<{ dentistId: string }>>();
  const answer = fetcher.data;
  const selectId = `dentalink-link-${link.dentistId}`;
  const state =
    link.problem === "unlinked"
      ? "Sin vincular: sus citas no se envían a Dentalink."
      : link.problem === "missing"
        ? `Vinculado a ${link.dentalinkDentistId}, que Dentalink no tiene activo.`
        : `${link.dentalinkName ?? link.dentalinkDentistId} (${link.dentalinkDentistId})${
            link.source ? `, vinculado ${linkSources[link.source]}` : ""
          }.`;
  return (
    <li className="flex flex-wrap items-end justify-between gap-3 py-3" data-testid="dentist-link">
      <div>
        <p className="font-medium" data-testid="dentist-link-name">
          {link.name}
        </p>
        <p
          className={cn("text-sm", link.problem ? "text-red-800" : "text-slate-700")}
          data-testid="dentist-link-state"
        >
          {state}
        </p>
      </div>
      {canEdit && (
        <fetcher.Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value={DENTIST_LINK_INTENT} />
          <input type="hidden" name="dentistId" value={link.dentistId} />
          <div className="flex flex-col gap-1">
            <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
              Dentista de Dentalink para {link.name}
            </label>
            <select
              id={selectId}
              name="dentalinkDentistId"
              defaultValue={link.dentalinkDentistId ?? NO_DENTALINK_DENTIST}
              className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
            >
              <option value={NO_DENTALINK_DENTIST}>Sin vincular</option>
              {dentists.map((dentist) => (
                <option key={dentist.id} value={dentist.id}>
                  {dentist.name} ({dentist.id})
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
            Guardar<span className="sr-only"> el vínculo de {link.name}</span>
          </Button>
          {answer && (
            <span
              role={answer.ok ? "status" : "alert"}
              className={answer.ok ? "text-emerald-900" : "text-red-800"}
            >
              {answer.message}
            </span>
          )}
        </fetcher.Form>
      )}
    </li>
  );
}
