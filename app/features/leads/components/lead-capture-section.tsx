import { currentConsentText, splitAtPolicyLink } from "~/domain/consent-texts";
import { CheckCircle2 } from "lucide-react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { ConsentField, FormAlert, TextareaField } from "~/components/form-fields";
import { useAppData } from "~/lib/app-data";
import { ensureSubmissionId, SubmissionIdField } from "~/lib/submission-id";
import { useValidatedForm } from "~/lib/validated-form";
import type { LeadActionResult } from "../lead-schema";
import { LeadChoiceFields, LeadContactFields } from "./lead-fields";

const [consentBefore, consentLink, consentAfter] = splitAtPolicyLink(
  currentConsentText("datos_contacto").text,
);

const loadLeadSchema = () => import("../lead-schema").then((module) => module.leadFormSchema);

export function LeadCaptureSection() {
  const fetcher = useFetcher<LeadActionResult>({ key: "lead-capture" });
  // Without JavaScript the form posts as a document and the answer comes back as the route's action data.
  const documentResult = useActionData<LeadActionResult>();
  const result = fetcher.data ?? documentResult;
  const busy = fetcher.state !== "idle";
  const form = useValidatedForm(loadLeadSchema, result, { onSubmit: ensureSubmissionId });
  const { clinic } = useAppData();

  return (
    <section
      id="lead-capture"
      // Its code loads when it nears the viewport (routes/_public/home.tsx, ADR 022); the e2e helpers look for this.
      data-hydrate="when-near"
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
              <p className="mt-4 text-xl font-semibold">{result.data.promise.title}</p>
              <p className="mt-2 text-slate-700">{result.data.promise.detail}</p>
              <Button type="button" variant="secondary" className="mt-6" onClick={() => fetcher.reset()}>
                Enviar otra solicitud
              </Button>
            </div>
          ) : (
            <fetcher.Form
              method="post"
              action="/?index"
              {...form.formProps}
              className="grid gap-4 sm:grid-cols-2"
            >
              <SubmissionIdField />
              <input type="hidden" name="source" value="web" />
              {/* A refusal of the whole form (the hourly budget); field errors stand beside their fields. */}
              <FormAlert
                message={result && !result.ok && !result.fieldErrors ? result.message : undefined}
                className="sm:col-span-2"
              />
              <LeadContactFields
                error={form.error}
                nameLabel="Nombre completo"
                own
                readOnly={busy}
                emailClassName="sm:col-span-2"
              />
              <LeadChoiceFields
                error={form.error}
                labels={{
                  treatment: "Tratamiento de interés",
                  urgency: "¿Cuándo te gustaría comenzar?",
                  budget: "Presupuesto estimado",
                }}
              />
              <TextareaField
                label="Mensaje (opcional)"
                error={form.error("message")}
                className="sm:col-span-2"
                name="message"
                rows={3}
                maxLength={2000}
                readOnly={busy}
              />
              {/* The versioned consent text (app/domain/consent-texts.ts), recorded with the lead. */}
              <ConsentField error={form.error("consent")} className="sm:col-span-2">
                {consentBefore}
                <a href="/politica-privacidad" className="font-medium text-brand-700 underline">
                  {consentLink}
                </a>
                {consentAfter}
              </ConsentField>
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
