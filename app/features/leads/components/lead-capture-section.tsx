import { CheckCircle2 } from "lucide-react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { ChoiceOptions } from "~/components/ui/choice-options";
import { Field, Input, Select, Textarea } from "~/components/ui/field";
import { budgets, treatments, urgencies } from "~/domain/lead-scoring";
import { useAppData } from "~/lib/app-data";
import { ensureSubmissionId, SubmissionIdField } from "~/lib/submission-id";
import type { LeadActionResult } from "../lead-action-result";
import { budgetLabels, treatmentLabels, urgencyLabels } from "../lead-options";

export function LeadCaptureSection() {
  const fetcher = useFetcher<LeadActionResult>({ key: "lead-capture" });
  // Without JavaScript the form posts as a document and the answer comes back as the route's action data.
  const documentResult = useActionData<LeadActionResult>();
  const result = fetcher.data ?? documentResult;
  const busy = fetcher.state !== "idle";
  const errors = result && !result.ok ? result.errors : {};
  const { clinic } = useAppData();

  return (
    <section
      id="lead-capture"
      aria-labelledby="lead-capture-titulo"
      className="scroll-mt-20 bg-brand-50 py-20"
    >
      <div className="mx-auto grid max-w-6xl gap-10 px-4 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <h2 id="lead-capture-titulo" className="text-3xl font-bold">
            Agenda tu evaluación gratuita
          </h2>
          <p className="mt-3 text-slate-700">
            Cuéntanos qué necesitas y un asesor te contactará. La primera evaluación no tiene costo y sales
            con un diagnóstico y un presupuesto claro, válido por 30 días.
          </p>
          <ul className="mt-6 list-disc space-y-2 pl-5 text-slate-700">
            <li>Diagnóstico asistido por IA y revisado por tu especialista</li>
            <li>Presupuesto detallado y opciones de pago</li>
            <li>Atención {clinic.hoursInSentence}</li>
          </ul>
        </div>
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 lg:col-span-3">
          {result?.ok ? (
            <div role="status" className="text-center" data-testid="lead-success">
              <CheckCircle2 aria-hidden className="mx-auto size-12 text-brand-700" />
              <p className="mt-4 text-xl font-semibold">{result.promise.title}</p>
              <p className="mt-2 text-slate-700">{result.promise.detail}</p>
              <Button type="button" variant="secondary" className="mt-6" onClick={() => fetcher.reset()}>
                Enviar otra solicitud
              </Button>
            </div>
          ) : (
            <fetcher.Form
              method="post"
              action="/?index"
              onSubmit={ensureSubmissionId}
              className="grid gap-4 sm:grid-cols-2"
            >
              <SubmissionIdField />
              <input type="hidden" name="source" value="web" />
              {errors.form && (
                <p
                  role="alert"
                  className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800 sm:col-span-2"
                >
                  {errors.form}
                </p>
              )}
              <Field label="Nombre completo" error={errors.name}>
                {(props) => (
                  <Input
                    {...props}
                    name="name"
                    autoComplete="name"
                    required
                    maxLength={100}
                    readOnly={busy}
                  />
                )}
              </Field>
              <Field label="Teléfono" error={errors.phone} hint="Celular o fijo chileno.">
                {(props) => (
                  <Input
                    {...props}
                    name="phone"
                    type="tel"
                    inputMode="tel"
                    autoComplete="tel"
                    placeholder="+56 9 1234 5678"
                    required
                    maxLength={30}
                    readOnly={busy}
                  />
                )}
              </Field>
              <Field label="E-mail (opcional)" error={errors.email} className="sm:col-span-2">
                {(props) => (
                  <Input
                    {...props}
                    name="email"
                    type="email"
                    autoComplete="email"
                    maxLength={254}
                    readOnly={busy}
                  />
                )}
              </Field>
              <Field label="Tratamiento de interés" error={errors.treatment}>
                {(props) => (
                  <Select {...props} name="treatment" required defaultValue="">
                    <ChoiceOptions values={treatments} labels={treatmentLabels} />
                  </Select>
                )}
              </Field>
              <Field label="¿Cuándo te gustaría comenzar?" error={errors.urgency}>
                {(props) => (
                  <Select {...props} name="urgency" required defaultValue="">
                    <ChoiceOptions values={urgencies} labels={urgencyLabels} />
                  </Select>
                )}
              </Field>
              <Field label="Presupuesto estimado" error={errors.budget} className="sm:col-span-2">
                {(props) => (
                  <Select {...props} name="budget" required defaultValue="">
                    <ChoiceOptions values={budgets} labels={budgetLabels} />
                  </Select>
                )}
              </Field>
              <Field label="Mensaje (opcional)" error={errors.message} className="sm:col-span-2">
                {(props) => <Textarea {...props} name="message" rows={3} maxLength={2000} readOnly={busy} />}
              </Field>
              <div className="sm:col-span-2">
                <label className="flex items-start gap-3 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    name="consent"
                    required
                    aria-invalid={errors.consent ? true : undefined}
                    className="mt-0.5 size-5 shrink-0 accent-brand-700"
                  />
                  <span>
                    Acepto que la clínica use estos datos para contactarme, según la{" "}
                    <a href="/politica-privacidad" className="font-medium text-brand-700 underline">
                      Política de Privacidad
                    </a>
                    .
                  </span>
                </label>
                {errors.consent && <p className="mt-1 text-sm font-medium text-red-700">{errors.consent}</p>}
              </div>
              <Button type="submit" variant="accent" disabled={busy} className="sm:col-span-2">
                {busy ? "Enviando..." : "Quiero mi evaluación gratuita"}
              </Button>
            </fetcher.Form>
          )}
        </div>
      </div>
    </section>
  );
}
