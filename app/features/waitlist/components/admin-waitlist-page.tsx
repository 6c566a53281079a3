import { Form, useNavigation } from "react-router";
import { ActionMessage } from "~/components/admin-ui";
import { InputField, SelectField } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import type { ActionResult } from "~/lib/base/action-result";
import type { StaffWaitlistDay } from "../waitlist-dto";
import { WaitlistDays } from "./waitlist-days";

export interface AdminWaitlistData {
  today: string;
  days: StaffWaitlistDay[];
  dentists: Array<{ id: string; name: string }>;
  /** Active entries to offer a slot to by hand. */
  entries: Array<{ id: string; label: string }>;
}

/**
 * /admin/lista-de-espera (ADR 040): the waitlist per day for the next two weeks, the freed slots with their offers,
 * and 'Ofrecer esta hora' by hand.
 */
export function AdminWaitlistPage({
  data,
  result,
}: {
  data: AdminWaitlistData;
  result: ActionResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <div>
      <h1 className="text-3xl font-bold">Lista de espera</h1>
      <p className="mt-2 text-slate-700">
        Las horas liberadas se ofrecen solas a los pacientes en espera, de a 5 cada 10 minutos, por orden de
        llegada. Aquí puedes ofrecer una hora libre a mano.
      </p>

      <section aria-labelledby="manual-offer" className="mt-8 rounded-xl bg-white p-5 ring-1 ring-slate-200">
        <h2 id="manual-offer" className="text-lg font-semibold">
          Ofrecer esta hora
        </h2>
        <ActionMessage result={result} />
        <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2">
          <SelectField label="Dentista" name="dentistId" required defaultValue="">
            <option value="" disabled>
              Elige un dentista
            </option>
            {data.dentists.map((dentist) => (
              <option key={dentist.id} value={dentist.id}>
                {dentist.name}
              </option>
            ))}
          </SelectField>
          <InputField label="Fecha" name="date" type="date" required min={data.today} />
          <InputField label="Hora" name="time" type="time" required step={1800} />
          <SelectField label="Duración" name="durationMinutes" defaultValue="60">
            {[30, 45, 60, 90, 120].map((minutes) => (
              <option key={minutes} value={minutes}>
                {minutes} minutos
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Ofrecer a"
            name="entryId"
            defaultValue=""
            className="sm:col-span-2"
            hint="Sin un paciente elegido, la hora se ofrece ahora a los 5 primeros que calcen."
          >
            <option value="">Los pacientes en espera que calcen (por orden de llegada)</option>
            {data.entries.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.label}
              </option>
            ))}
          </SelectField>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy}>
              Ofrecer esta hora
            </Button>
          </div>
        </Form>
      </section>

      <section aria-labelledby="waitlist-by-day" className="mt-10">
        <h2 id="waitlist-by-day" className="text-2xl font-bold">
          Por día
        </h2>
        <WaitlistDays days={data.days} onlyBusyDays />
      </section>
    </div>
  );
}
