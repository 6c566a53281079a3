import type { useFetcher } from "react-router";
import { FormAlert, InputField, SelectField, TextareaField } from "~/components/form-fields";
import { RutField } from "~/components/rut-field";
import { Button } from "~/components/ui/button";
import { useValidatedForm } from "~/lib/validated-form";
import type { SyncActionData, SyncPrefill, SyncTabData } from "../sync-dto";
import {
  SYNC_INTENT,
  SYNC_OVERALL_MESSAGE,
  syncAppointmentTimes,
  syncFormFields,
  syncTreatmentLabels,
  syncTreatmentTypes,
} from "../sync-options";

const loadSyncSchema = () => import("../sync-schema").then((module) => module.syncActionSchema);

export type SyncFetcher = ReturnType<typeof useFetcher<SyncActionData>>;

/**
 * The sync form: the patient and the appointment, checked in the browser with the action's own schema (ADR 013).
 * Every submission carries its idempotency key and, when booking a lead, the lead's id.
 */
export function SyncForm({
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
        <RutField label="RUT (opcional)" error={form.error("rut")} />
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
