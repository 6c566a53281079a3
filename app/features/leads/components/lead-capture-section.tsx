import { currentConsentText, splitAtPolicyLink } from "~/domain/consent-texts";
import { CheckCircle2 } from "lucide-react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { ConsentField, FormAlert, TextareaField } from "~/components/form-fields";
import type { FieldErrors } from "~/lib/base/action-result";
import { useAppData } from "~/lib/app-data";
import { Prepared } from "~/lib/prepared-markup";
import { ensureSubmissionId, SubmissionIdField } from "~/lib/submission-id";
import { useValidatedForm } from "~/lib/validated-form";
import type { LeadActionResult } from "../lead-schema";
import { LeadChoiceFields, LeadContactFields } from "./lead-fields";

const [consentBefore, consentLink, consentAfter] = splitAtPolicyLink(
  currentConsentText("datos_contacto").text,
);

const loadLeadSchema = () => import("../lead-schema").then((module) => module.leadFormSchema);

/** Where the form posts: the landing's own action (routes/_public/home.tsx). */
const LEAD_ACTION = "/?index";
/** The fields' ids: the form is on the landing once, and its HTML is prepared apart from the page (ADR 055). */
const ID_PREFIX = "lead";

const sectionAttributes = {
  id: "lead-capture",
  // Its code loads when it nears the viewport (routes/_public/home.tsx, ADR 022); the e2e helpers look for this.
  "data-hydrate": "when-near",
  "aria-labelledby": "lead-capture-titulo",
  className: "scroll-mt-20 bg-brand-50 py-20",
};

export function LeadCaptureSection() {
  const fetcher = useFetcher<LeadActionResult>({ key: "lead-capture" });
  // Without JavaScript the form posts as a document and the answer comes back as the route's action data.
  const documentResult = useActionData<LeadActionResult>();
  const result = fetcher.data ?? documentResult;
  const busy = fetcher.state !== "idle";
  const form = useValidatedForm(loadLeadSchema, result, { onSubmit: ensureSubmissionId });
  const { clinic } = useAppData();

  return (
    <Prepared
      as="section"
      attributes={sectionAttributes}
      name="lead-capture"
      content={LeadCaptureContent}
      props={{ hoursInSentence: clinic.hoursInSentence, errors: form.errors, busy, result: result ?? null }}
      live={{
        form: {
          ...form.formProps,
          onSubmit(event: React.FormEvent<HTMLFormElement>) {
            form.formProps.onSubmit(event);
            if (event.defaultPrevented) return;
            // What <fetcher.Form> does: the fetcher posts the form, the page stays.
            event.preventDefault();
            void fetcher.submit(event.currentTarget, { method: "post", action: LEAD_ACTION });
          },
        },
        onReset: () => fetcher.reset(),
      }}
      // The form as every visitor first gets it is kept; an answer to one visitor's post is rendered for them alone.
      reuse={!result}
    />
  );
}

interface LeadCaptureContentProps {
  hoursInSentence: string;
  errors: FieldErrors;
  busy: boolean;
  result: LeadActionResult | null;
}

interface LeadCaptureLive {
  /** The browser's checks (useValidatedForm: they listen on the form for its fields' focus and input) and the post. */
  form: {
    onFocus: React.FocusEventHandler<HTMLFormElement>;
    onInput: React.FormEventHandler<HTMLFormElement>;
    onSubmit: React.FormEventHandler<HTMLFormElement>;
  };
  /** "Enviar otra solicitud": back to an empty form. */
  onReset: () => void;
}

/** The lead section's inside, from plain data (its HTML is prepared once on the server; `live` comes in the browser). */
function LeadCaptureContent({
  hoursInSentence,
  errors,
  busy,
  result,
  live,
}: LeadCaptureContentProps & { live?: LeadCaptureLive }) {
  const error = (name: string) => errors[name]?.[0];
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 lg:grid-cols-5">
      <div className="lg:col-span-2">
        <h2 id="lead-capture-titulo" className="text-3xl font-bold">
          Agenda tu evaluación gratuita
        </h2>
        <p className="mt-3 text-slate-700">
          Cuéntanos qué necesitas y un asesor te contactará. La primera evaluación no tiene costo y sales con
          un diagnóstico y un presupuesto claro, válido por 30 días.
        </p>
        <ul className="mt-6 list-disc space-y-2 pl-5 text-slate-700">
          <li>Diagnóstico asistido por IA y revisado por tu especialista</li>
          <li>Presupuesto detallado y opciones de pago</li>
          <li>Atención {hoursInSentence}</li>
        </ul>
      </div>
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 lg:col-span-3">
        {result?.ok ? (
          <div role="status" className="text-center" data-testid="lead-success">
            <CheckCircle2 aria-hidden className="mx-auto size-12 text-brand-700" />
            <p className="mt-4 text-xl font-semibold">{result.data.promise.title}</p>
            <p className="mt-2 text-slate-700">{result.data.promise.detail}</p>
            <Button type="button" variant="secondary" className="mt-6" onClick={live?.onReset}>
              Enviar otra solicitud
            </Button>
          </div>
        ) : (
          <form method="post" action={LEAD_ACTION} {...live?.form} className="grid gap-4 sm:grid-cols-2">
            <SubmissionIdField />
            <input type="hidden" name="source" value="web" />
            {/* A refusal of the whole form (the hourly budget); field errors stand beside their fields. */}
            <FormAlert
              message={result && !result.ok && !result.fieldErrors ? result.message : undefined}
              className="sm:col-span-2"
            />
            <LeadContactFields
              error={error}
              nameLabel="Nombre completo"
              own
              readOnly={busy}
              emailClassName="sm:col-span-2"
              idPrefix={ID_PREFIX}
            />
            <LeadChoiceFields
              error={error}
              labels={{
                treatment: "Tratamiento de interés",
                urgency: "¿Cuándo te gustaría comenzar?",
                budget: "Presupuesto estimado",
              }}
              idPrefix={ID_PREFIX}
            />
            <TextareaField
              id={`${ID_PREFIX}-message`}
              label="Mensaje (opcional)"
              error={error("message")}
              className="sm:col-span-2"
              name="message"
              rows={3}
              maxLength={2000}
              readOnly={busy}
            />
            {/* The versioned consent text (app/domain/consent-texts.ts), recorded with the lead. */}
            <ConsentField error={error("consent")} className="sm:col-span-2">
              {consentBefore}
              <a href="/politica-privacidad" className="font-medium text-brand-700 underline">
                {consentLink}
              </a>
              {consentAfter}
            </ConsentField>
            <Button type="submit" variant="accent" disabled={busy} className="sm:col-span-2">
              {busy ? "Enviando..." : "Quiero mi evaluación gratuita"}
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
