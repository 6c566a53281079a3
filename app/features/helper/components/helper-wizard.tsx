import { currentConsentText, splitAtPolicyLink } from "~/domain/consent-texts";
import { CheckCircle2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { budgets, treatments, urgencies } from "~/domain/lead-scoring";
import type { LeadActionResult } from "~/features/leads/lead-schema";
import { fieldError, formLevelMessage } from "~/lib/base/action-result";
import { budgetLabels, treatmentLabels, urgencyLabels } from "~/domain/lead-labels";
import { ensureSubmissionId, SubmissionIdField } from "~/lib/submission-id";

const [consentBefore, consentLink, consentAfter] = splitAtPolicyLink(
  currentConsentText("datos_contacto").text,
);

const choiceSteps = [
  {
    name: "treatment",
    question: "¿Qué tratamiento te interesa?",
    values: treatments,
    labels: treatmentLabels,
  },
  { name: "urgency", question: "¿Cuándo te gustaría comenzar?", values: urgencies, labels: urgencyLabels },
  { name: "budget", question: "¿Qué presupuesto estimas?", values: budgets, labels: budgetLabels },
] as const;

type ChoiceName = (typeof choiceSteps)[number]["name"];
const TOTAL_STEPS = choiceSteps.length + 1;

export function HelperWizard({ onDone }: { onDone: () => void }) {
  const [step, setStep] = useState(0);
  const [choices, setChoices] = useState<Partial<Record<ChoiceName, string>>>({});
  const fetcher = useFetcher<LeadActionResult>({ key: "helper-wizard" });
  const heading = useRef<HTMLHeadingElement>(null);
  const result = fetcher.data;
  const error = (field: string) => fieldError(result, field);
  const refusal = formLevelMessage(result);
  const busy = fetcher.state !== "idle";

  useEffect(() => heading.current?.focus(), [step, result?.ok]);

  if (result?.ok) {
    return (
      <div role="status" className="p-6 text-center" data-testid="wizard-success">
        <CheckCircle2 aria-hidden className="mx-auto size-10 text-brand-700" />
        <h3 ref={heading} tabIndex={-1} className="mt-3 font-semibold">
          {result.data.promise.title}
        </h3>
        <p className="mt-2 text-sm text-slate-700">{result.data.promise.detail}</p>
        <button
          type="button"
          onClick={onDone}
          className="mt-4 rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold"
        >
          Cerrar
        </button>
      </div>
    );
  }

  const current = choiceSteps[step];
  return (
    <div className="p-4">
      <p className="text-xs font-medium text-slate-600">
        Paso {step + 1} de {TOTAL_STEPS}
      </p>
      {current ? (
        <fieldset className="mt-2">
          <legend>
            <h3 ref={heading} tabIndex={-1} className="font-semibold">
              {current.question}
            </h3>
          </legend>
          <div className="mt-3 grid gap-2">
            {current.values.map((value) => (
              <button
                key={value}
                type="button"
                onClick={() => {
                  setChoices((previous) => ({ ...previous, [current.name]: value }));
                  setStep(step + 1);
                }}
                className="rounded-lg border border-slate-300 px-3 py-2.5 text-left text-sm font-medium hover:border-brand-700 hover:bg-brand-50"
              >
                {(current.labels as Record<string, string>)[value]}
              </button>
            ))}
          </div>
        </fieldset>
      ) : (
        <fetcher.Form method="post" action="/?index" onSubmit={ensureSubmissionId} className="mt-2 space-y-3">
          <h3 ref={heading} tabIndex={-1} className="font-semibold">
            ¿Cómo te contactamos?
          </h3>
          <SubmissionIdField />
          <input type="hidden" name="source" value="asistente" />
          {choiceSteps.map(({ name }) => (
            <input key={name} type="hidden" name={name} value={choices[name] ?? ""} />
          ))}
          {refusal && (
            <p role="alert" className="text-sm font-medium text-red-700">
              {refusal}
            </p>
          )}
          <WizardField label="Nombre" name="name" autoComplete="name" error={error("name")} />
          <WizardField
            label="Teléfono"
            name="phone"
            type="tel"
            autoComplete="tel"
            placeholder="+56 9 1234 5678"
            error={error("phone")}
          />
          <WizardField
            label="E-mail (opcional)"
            name="email"
            type="email"
            autoComplete="email"
            error={error("email")}
            optional
          />
          <label className="flex items-start gap-2 text-xs text-slate-700">
            <input
              type="checkbox"
              name="consent"
              required
              className="mt-0.5 size-4 shrink-0 accent-brand-700"
            />
            {/* The same versioned text as the landing's form (app/domain/consent-texts.ts). */}
            <span>
              {consentBefore}
              <a href="/politica-privacidad" className="underline">
                {consentLink}
              </a>
              {consentAfter}
            </span>
          </label>
          {error("consent") && <p className="text-xs font-medium text-red-700">{error("consent")}</p>}
          {(error("treatment") || error("urgency") || error("budget")) && (
            <p className="text-xs font-medium text-red-700">
              {error("treatment") ?? error("urgency") ?? error("budget")}
            </p>
          )}
          <button
            type="submit"
            disabled={busy}
            className="w-full rounded-lg bg-accent px-4 py-2.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
          >
            {busy ? "Enviando..." : "Solicitar evaluación gratuita"}
          </button>
        </fetcher.Form>
      )}
      {step > 0 && (
        <button
          type="button"
          onClick={() => setStep(step - 1)}
          className="mt-3 text-sm font-medium text-brand-700 underline"
        >
          Volver
        </button>
      )}
    </div>
  );
}

interface WizardFieldProps extends React.ComponentProps<"input"> {
  label: string;
  name: string;
  error?: string;
  optional?: boolean;
}

function WizardField({ label, error, optional, ...input }: WizardFieldProps) {
  const id = `wizard-${input.name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        required={!optional}
        maxLength={input.type === "email" ? 254 : 100}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
        className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-700 focus:outline-none"
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
