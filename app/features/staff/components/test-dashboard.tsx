import { CheckCircle2, FlaskConical, Play, Trash2, XCircle } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { FormAlert, InputField, TextareaField } from "~/components/form-fields";
import { LeadChoiceFields, LeadContactFields } from "~/features/leads/components/lead-fields";
import { budgetLabels, treatmentLabels, urgencyLabels } from "~/domain/lead-labels";
import { formLevelMessage } from "~/lib/base/action-result";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/cn";
import { useValidatedForm } from "~/lib/validated-form";
import { WhatsAppCard, type WhatsAppCardLead } from "~/features/messaging/components/whatsapp-card";
import type { WhatsAppCardData } from "~/features/messaging/whatsapp-log-dto";
import { levelBadgeTone } from "~/features/crm/lead-panel-options";
import {
  MAX_TEST_RESULTS,
  TEST_PRESENTATION_DELAY_MS,
  type LeadTestActionData,
  type LeadTestResult,
} from "../lead-test-dto";
import { scenarioKeys, testScenarios } from "../test-scenarios";
import { DashboardHeader } from "~/components/dashboard-header";

const loadLeadTestSchema = () => import("../lead-test-schema").then((module) => module.leadTestActionSchema);

interface Waiting {
  intent: string;
  scenario: string;
}

/** The card's lead: the latest scored test lead. */
function cardLead(result: LeadTestResult | undefined): WhatsAppCardLead | null {
  if (!result) return null;
  return {
    key: result.id,
    label: `${result.label}: ${result.name} (${result.score} puntos, ${result.levelLabel})`,
    fields: result.sendFields,
  };
}

export function TestDashboard({ whatsApp }: { whatsApp: WhatsAppCardData }) {
  const fetcher = useFetcher<LeadTestActionData>({ key: "lead-test" });
  // Without JavaScript the forms post as documents and only the latest result comes back.
  const documentResult = useActionData<LeadTestActionData>();
  const [history, setHistory] = useState<LeadTestResult[]>([]);
  const [seen, setSeen] = useState<LeadTestActionData | undefined>(undefined);
  // A result waiting for the presentation delay, and what was asked (for the button's "Calculando...").
  const [pending, setPending] = useState<LeadTestResult | null>(null);
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  // Adjusting state while rendering when a new answer arrives (React's documented alternative to an effect).
  if (fetcher.data !== seen) {
    setSeen(fetcher.data);
    const answer = fetcher.data;
    if (answer?.ok) setPending(answer.data.result);
    else setWaiting(null);
  }

  // A new submission: what was asked, and when (the presentation delay counts from here).
  const [seenForm, setSeenForm] = useState<FormData | undefined>(undefined);
  if (fetcher.formData && fetcher.formData !== seenForm) {
    const asked = fetcher.formData;
    setSeenForm(asked);
    setWaiting({
      intent: String(asked.get("intent") ?? ""),
      scenario: String(asked.get("scenario") ?? ""),
    });
  }
  // When the last test was asked for (set by the forms' submit events).
  const startedAt = useRef(0);
  const markStart = () => {
    startedAt.current = Date.now();
  };

  // The result shows 1.5 s after the click, however fast the server scored it, as a real lead's scoring would feel.
  useEffect(() => {
    if (!pending) return;
    const wait = Math.max(0, startedAt.current + TEST_PRESENTATION_DELAY_MS - Date.now());
    const timer = setTimeout(() => {
      setHistory((current) => [pending, ...current].slice(0, MAX_TEST_RESULTS));
      setPending(null);
      setWaiting(null);
    }, wait);
    return () => clearTimeout(timer);
  }, [pending]);

  const latest = fetcher.data ?? documentResult;
  const form = useValidatedForm(loadLeadTestSchema, latest, { onSubmit: markStart });
  const results =
    history.length > 0 || fetcher.data ? history : documentResult?.ok ? [documentResult.data.result] : [];
  const busy = fetcher.state !== "idle" || pending !== null;
  const pendingIntent = busy ? (waiting?.intent ?? fetcher.formData?.get("intent")) : null;
  const pendingScenario = busy ? (waiting?.scenario ?? fetcher.formData?.get("scenario")) : null;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <DashboardHeader
        title={
          <>
            <FlaskConical aria-hidden className="size-7 text-brand-700" />
            Dashboard de Pruebas
          </>
        }
        description="Prueba el puntaje de leads con las mismas reglas que usa la landing. Las pruebas no se guardan como leads."
        back={{ to: "/funnel", label: "Volver al Funnel" }}
      />

      <section aria-labelledby="escenarios" className="mt-10">
        <h2 id="escenarios" className="text-xl font-semibold">
          Escenarios predefinidos
        </h2>
        <ul className="mt-4 grid gap-4 md:grid-cols-3">
          {scenarioKeys.map((key) => {
            const scenario = testScenarios[key];
            return (
              <li
                key={key}
                className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
              >
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-lg font-semibold">{scenario.title}</h3>
                  <Badge tone={levelBadgeTone[key]}>Esperado: {scenario.expectedScore}</Badge>
                </div>
                <p className="mt-2 text-sm text-slate-700">{scenario.description}</p>
                <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-500">Nombre</dt>
                  <dd>{scenario.lead.name}</dd>
                  <dt className="text-slate-500">Tratamiento</dt>
                  <dd>{treatmentLabels[scenario.lead.treatment]}</dd>
                  <dt className="text-slate-500">Urgencia</dt>
                  <dd>{urgencyLabels[scenario.lead.urgency]}</dd>
                  <dt className="text-slate-500">Presupuesto</dt>
                  <dd>{budgetLabels[scenario.lead.budget]}</dd>
                  <dt className="text-slate-500">Contacto</dt>
                  <dd>{scenario.lead.email ? "Teléfono y e-mail" : "Solo teléfono"}</dd>
                </dl>
                <p className="mt-3 line-clamp-3 text-sm text-slate-600 italic">“{scenario.lead.message}”</p>
                <fetcher.Form method="post" className="mt-auto pt-4" onSubmit={markStart}>
                  <input type="hidden" name="intent" value="scenario" />
                  <input type="hidden" name="scenario" value={key} />
                  <Button type="submit" variant="primary" disabled={busy} className="w-full">
                    <Play aria-hidden className="size-4" />
                    {pendingScenario === key ? "Calculando..." : "Ejecutar prueba"}
                  </Button>
                </fetcher.Form>
              </li>
            );
          })}
        </ul>
      </section>

      <div className="mt-12 grid gap-10 lg:grid-cols-2">
        <section aria-labelledby="prueba-personalizada">
          <h2 id="prueba-personalizada" className="text-xl font-semibold">
            Prueba personalizada
          </h2>
          <fetcher.Form
            method="post"
            {...form.formProps}
            className="mt-4 grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 sm:grid-cols-2"
          >
            <input type="hidden" name="intent" value="custom" />
            <FormAlert message={formLevelMessage(latest)} className="sm:col-span-2" />
            <LeadContactFields error={form.error} nameLabel="Nombre" own={false} />
            <InputField
              label="Edad (opcional)"
              error={form.error("age")}
              name="age"
              type="number"
              inputMode="numeric"
              min={1}
              max={120}
            />
            <LeadChoiceFields
              error={form.error}
              labels={{ treatment: "Tratamiento", urgency: "Urgencia", budget: "Presupuesto" }}
            />
            <TextareaField
              label="Mensaje (opcional)"
              error={form.error("message")}
              hint="Más de 50 caracteres suma puntos por consulta detallada."
              className="sm:col-span-2"
              name="message"
              rows={3}
              maxLength={2000}
            />
            <Button type="submit" variant="accent" disabled={busy} className="sm:col-span-2">
              {pendingIntent === "custom" ? "Calculando..." : "Calcular puntaje"}
            </Button>
          </fetcher.Form>
        </section>

        <section aria-labelledby="resultados">
          <div className="flex items-center justify-between gap-3">
            <h2 id="resultados" className="text-xl font-semibold">
              Resultados
            </h2>
            <Button
              type="button"
              variant="secondary"
              onClick={() => setHistory([])}
              disabled={results.length === 0}
              className="px-3 py-1.5 text-sm"
            >
              <Trash2 aria-hidden className="size-4" />
              Limpiar
            </Button>
          </div>
          <p className="mt-1 text-sm text-slate-600">
            Se muestran los últimos {MAX_TEST_RESULTS} resultados.
          </p>
          <div aria-live="polite">
            {results.length === 0 ? (
              <p className="mt-4 rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600">
                Aún no hay resultados. Ejecuta un escenario o una prueba personalizada.
              </p>
            ) : (
              <ol className="mt-4 space-y-3">
                {results.map((result) => (
                  <ResultItem key={result.id} result={result} />
                ))}
              </ol>
            )}
          </div>
        </section>
      </div>

      <div className="mt-12">
        <WhatsAppCard
          lead={cardLead(results[0])}
          clinicTestMode={whatsApp.clinicTestMode}
          initialLog={whatsApp.log}
          defaultTestMode
        />
      </div>
    </div>
  );
}

function ResultItem({ result }: { result: LeadTestResult }) {
  const matches = result.expectedScore === null ? null : result.expectedScore === result.score;
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4" data-testid="test-result">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold">
            {result.label}: {result.name}
          </p>
          <p className="text-sm text-slate-600">{result.summary}</p>
        </div>
        <div className="text-right">
          <p className="text-2xl font-bold">{result.score}</p>
          <Badge tone={levelBadgeTone[result.level] ?? "neutral"}>{result.levelLabel}</Badge>
        </div>
      </div>
      {matches !== null && (
        <p
          className={cn(
            "mt-2 flex items-center gap-1 text-sm font-medium",
            matches ? "text-emerald-800" : "text-red-700",
          )}
        >
          {matches ? (
            <CheckCircle2 aria-hidden className="size-4" />
          ) : (
            <XCircle aria-hidden className="size-4" />
          )}
          {matches
            ? `Coincide con el puntaje esperado (${result.expectedScore}).`
            : `Se esperaba ${result.expectedScore}.`}
        </p>
      )}
      <div className="mt-2 text-sm">
        <p className="font-medium text-slate-800">Criterios cumplidos</p>
        {result.reasons.length > 0 ? (
          <ul className="mt-1 list-disc pl-5 text-slate-700">
            {result.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-slate-600">Ningún criterio suma puntos.</p>
        )}
      </div>
      <div className="mt-2 rounded-lg bg-brand-50 p-3 text-sm">
        <p className="font-medium text-brand-900">Seguimiento: {result.promise.title}</p>
        <p className="text-slate-700">{result.promise.detail}</p>
      </div>
      <p className="mt-2 text-xs text-slate-500">
        Probado a las <time dateTime={result.testedAt}>{result.testedAtLabel}</time>
      </p>
    </li>
  );
}
