import { BellRing, CircleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { toast } from "sonner";
import { InputField, SelectField } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import { dayPartLabels, dayParts, weekdayLabels } from "~/domain/waitlist";
import type { FieldErrors } from "~/lib/base/action-result";
import type { WaitlistPageData } from "../waitlist-dto";
import { untilDateProblem, waitlistActionSchema, type WaitlistActionResult } from "../waitlist-schema";

const WORKDAYS = [1, 2, 3, 4, 5] as const;

/** The browser's check with the server's schema: field → first message. */
function clientErrors(form: HTMLFormElement, today: string): Record<string, string> {
  const values = Object.fromEntries(new FormData(form)) as Record<string, string>;
  const parsed = waitlistActionSchema.safeParse(values);
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      errors[key] ??= issue.message;
    }
  } else if (parsed.data.intent === "join") {
    const problem = untilDateProblem(parsed.data.untilDate, today);
    if (problem) errors.untilDate = problem;
  }
  return errors;
}

const firstErrors = (fieldErrors: FieldErrors | undefined) =>
  Object.fromEntries(Object.entries(fieldErrors ?? {}).map(([key, messages]) => [key, messages[0] ?? ""]));

/**
 * The patient's waitlist (ADR 040): ask to be told when an earlier time frees up (treatment, dentist or any, the
 * weekdays and parts of the day that suit them, until a date), see their requests and withdraw them.
 */
export function WaitlistPage({ data }: { data: WaitlistPageData }) {
  const result = useActionData<WaitlistActionResult>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [errors, setErrors] = useState<Record<string, string>>({});
  const serverErrors = result && !result.ok ? firstErrors(result.fieldErrors) : {};
  const fieldError = (name: string) => errors[name] ?? serverErrors[name];
  const atLimit = data.activeCount >= data.maxActive;
  const preselect = data.preselect;

  // Also a toast (the app-wide toaster, issue 24 item 18): on a phone the form is far below the message at the top.
  useEffect(() => {
    if (result?.ok && result.message) toast.success(result.message);
  }, [result]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="flex items-center gap-3 text-3xl font-bold">
        <BellRing aria-hidden className="size-8 text-brand-700" />
        Lista de espera
      </h1>
      <p className="mt-2 text-slate-700">
        Te avisamos por WhatsApp y correo si se libera una hora antes que te acomode. El enlace del aviso
        sirve una sola vez y la hora se la queda la primera persona que la tome.
      </p>

      {result && (
        <p
          role={result.ok ? "status" : "alert"}
          data-testid="waitlist-message"
          className={
            result.ok
              ? "mt-6 rounded-lg bg-brand-50 p-4 font-medium text-brand-900"
              : "mt-6 flex gap-2 rounded-lg bg-red-50 p-4 font-medium text-red-900"
          }
        >
          {!result.ok && <CircleAlert aria-hidden className="size-5 shrink-0" />}
          {result.ok ? result.message : result.message}
        </p>
      )}

      <section aria-labelledby="waitlist-entries" className="mt-8">
        <h2 id="waitlist-entries" className="text-xl font-bold">
          Tus avisos
        </h2>
        {data.entries.length === 0 ? (
          <p className="mt-3 text-slate-700">Aún no estás en la lista de espera.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {data.entries.map((entry) => (
              <li
                key={entry.id}
                data-testid="waitlist-entry"
                className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
              >
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <p className="font-semibold">
                      {entry.treatment} · {entry.dentist}
                    </p>
                    <p className="text-sm text-slate-700">
                      {entry.weekdays} · {entry.dayParts} · {entry.until}
                    </p>
                    {entry.linked && <p className="text-sm text-slate-700">{entry.linked}</p>}
                    <p className="mt-1 text-sm">
                      Estado: <span data-testid="waitlist-entry-status">{entry.statusLabel}</span>
                    </p>
                  </div>
                  {entry.active && (
                    <Form method="post">
                      <input type="hidden" name="intent" value="withdraw" />
                      <input type="hidden" name="entryId" value={entry.id} />
                      <Button type="submit" variant="secondary" disabled={busy}>
                        Salir de la lista
                      </Button>
                    </Form>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section
        aria-labelledby="waitlist-join"
        className="mt-10 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <h2 id="waitlist-join" className="text-xl font-bold">
          Avísame si se libera una hora antes
        </h2>
        {atLimit ? (
          <p className="mt-3 text-slate-700">
            Ya tienes {data.maxActive} avisos activos. Retira uno para agregar otro.
          </p>
        ) : (
          <Form
            method="post"
            noValidate
            className="mt-4 space-y-5"
            onSubmit={(event) => {
              const found = clientErrors(event.currentTarget, data.today);
              setErrors(found);
              if (Object.keys(found).length > 0) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="join" />
            <SelectField
              label="Tratamiento"
              name="treatment"
              required
              defaultValue={preselect?.treatment ?? ""}
              error={fieldError("treatment")}
            >
              <option value="" disabled>
                Elige un tratamiento
              </option>
              {data.treatments.map((treatment) => (
                <option key={treatment.slug} value={treatment.slug}>
                  {treatment.name}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Dentista"
              name="dentist"
              defaultValue={preselect?.dentist ?? "any"}
              error={fieldError("dentist")}
            >
              <option value="any">Cualquier dentista</option>
              {data.dentists.map((dentist) => (
                <option key={dentist.id} value={dentist.id}>
                  {dentist.name}
                </option>
              ))}
            </SelectField>
            {data.appointments.length > 0 && (
              <SelectField
                label="¿Quieres adelantar una cita que ya tienes?"
                name="appointmentId"
                defaultValue={preselect?.appointmentId ?? ""}
                hint="Tu cita actual se mantiene hasta que tomes otra hora; después puedes cancelarla desde Mis Citas."
                error={fieldError("appointmentId")}
              >
                <option value="">No, es una cita nueva</option>
                {data.appointments.map((appointment) => (
                  <option key={appointment.id} value={appointment.id}>
                    {appointment.label}
                  </option>
                ))}
              </SelectField>
            )}
            <fieldset>
              <legend className="text-sm font-medium text-slate-800">Días que te acomodan</legend>
              <p className="text-xs text-slate-600" id="weekday-hint">
                Si no marcas ninguno, te avisamos cualquier día.
              </p>
              <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
                {WORKDAYS.map((day) => (
                  <label key={day} className="flex min-h-11 items-center gap-2">
                    <input type="checkbox" name={`dia${day}`} value="1" className="size-5" />
                    {weekdayLabels[day]}
                  </label>
                ))}
              </div>
            </fieldset>
            <fieldset aria-describedby={fieldError("dayParts") ? "day-parts-error" : undefined}>
              <legend className="text-sm font-medium text-slate-800">Parte del día</legend>
              <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
                {dayParts.map((part) => (
                  <label key={part} className="flex min-h-11 items-center gap-2">
                    <input type="checkbox" name={part} value="1" defaultChecked className="size-5" />
                    {dayPartLabels[part]}
                  </label>
                ))}
              </div>
              {fieldError("dayParts") && (
                <p id="day-parts-error" className="mt-1 text-sm font-medium text-red-700">
                  {fieldError("dayParts")}
                </p>
              )}
            </fieldset>
            <InputField
              label="Avísame hasta el"
              name="untilDate"
              type="date"
              required
              min={data.today}
              max={data.latestUntil}
              error={fieldError("untilDate")}
            />
            <Button type="submit" disabled={busy}>
              Unirme a la lista de espera
            </Button>
          </Form>
        )}
      </section>

      <p className="mt-8">
        <Link to="/paciente/citas" className="font-semibold text-brand-700 underline">
          Volver a Mis Citas
        </Link>
      </p>
    </div>
  );
}
