import { useId, useMemo, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Textarea } from "~/components/ui/field";
import {
  allQuestions,
  answerErrors,
  answersSchema,
  NO,
  visibleQuestionIds,
  YES,
  type FormAnswers,
  type FormDefinition,
  type FormQuestion,
} from "~/domain/form-rules";
import { cn } from "~/lib/cn";
import { useFormTypedBeforeHydration } from "~/lib/typed-before-hydration";
import { SignatureField } from "./signature-field";

export const SAVE_INTENT = "guardar";
export const SUBMIT_INTENT = "enviar";

/**
 * Renders a form definition (ADR 041): its sections and text, the questions a condition shows, and the same
 * validator the action runs (domain/form-rules) before posting, so the patient sees the server's messages without a
 * round trip. 'Guardar y continuar después' posts whatever is there without validating.
 */
export function FormRenderer({
  definition,
  initial,
  serverErrors,
}: {
  definition: FormDefinition;
  initial: FormAnswers;
  serverErrors: Record<string, string>;
}) {
  const [answers, setAnswers] = useState<FormAnswers>(initial);
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const errors = clientErrors ?? serverErrors;
  const visible = useMemo(() => visibleQuestionIds(definition, answers), [definition, answers]);
  const busy = useNavigation().state === "submitting";
  const nameQuestion = allQuestions(definition).find((q) => q.type === "text" && q.autoComplete === "name");

  const formRef = useRef<HTMLFormElement>(null);
  // What the patient typed or chose before the page hydrated (a slow phone) is kept, not wiped by the next render.
  useFormTypedBeforeHydration(
    formRef,
    answers,
    allQuestions(definition)
      .filter((q) => q.type !== "signature")
      .map((q) => q.id),
    (changed) => setAnswers((current) => ({ ...current, ...changed })),
  );

  function set(id: string, value: string) {
    setAnswers((current) => ({ ...current, [id]: value }));
    if (clientErrors?.[id]) setClientErrors({ ...clientErrors, [id]: "" });
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === SAVE_INTENT) return;
    const result = answersSchema(definition).safeParse(answers);
    if (result.success) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    const found = answerErrors(result.error);
    setClientErrors(found);
    const first = allQuestions(definition).find((q) => found[q.id]);
    if (first) document.getElementById(`pregunta-${first.id}`)?.focus();
  }

  const errorCount = Object.values(errors).filter(Boolean).length;
  return (
    <Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="space-y-8">
      {errorCount > 0 && (
        <div role="alert" className="rounded-xl bg-red-50 p-4 text-red-900 ring-1 ring-red-200">
          <p className="font-semibold">
            {errorCount === 1
              ? "Falta 1 respuesta o hay un dato por corregir."
              : `Hay ${errorCount} respuestas por revisar.`}
          </p>
        </div>
      )}
      {definition.sections.map((section) => {
        const questions = section.questions.filter((q) => visible.has(q.id));
        return (
          <section key={section.id} aria-labelledby={`seccion-${section.id}`} className="space-y-4">
            <h2 id={`seccion-${section.id}`} className="text-xl font-semibold">
              {section.title}
            </h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph} className="leading-relaxed text-slate-700">
                {paragraph}
              </p>
            ))}
            {questions.map((question) =>
              question.type === "signature" ? (
                <SignatureField
                  key={question.id}
                  name={question.id}
                  label={question.label}
                  help={question.help}
                  error={errors[question.id] || undefined}
                  value={answers[question.id] ?? ""}
                  typedName={nameQuestion ? (answers[nameQuestion.id] ?? "") : ""}
                  onChange={(value) => set(question.id, value)}
                />
              ) : (
                <QuestionField
                  key={question.id}
                  question={question}
                  value={answers[question.id] ?? ""}
                  error={errors[question.id] || undefined}
                  onChange={(value) => set(question.id, value)}
                />
              ),
            )}
          </section>
        );
      })}
      <div className="flex flex-col gap-3 border-t border-slate-200 pt-6 sm:flex-row">
        <Button type="submit" name="intent" value={SUBMIT_INTENT} disabled={busy}>
          Enviar formulario
        </Button>
        <Button
          type="submit"
          name="intent"
          value={SAVE_INTENT}
          variant="secondary"
          formNoValidate
          disabled={busy}
        >
          Guardar y continuar después
        </Button>
      </div>
    </Form>
  );
}

function QuestionField({
  question,
  value,
  error,
  onChange,
}: {
  question: Exclude<FormQuestion, { type: "signature" }>;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const helpId = question.help ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(" ") || undefined;
  const label = (
    <>
      {question.label}
      {question.required && (
        <span className="text-red-700" aria-hidden>
          {" "}
          *
        </span>
      )}
    </>
  );
  const help = question.help && (
    <p id={helpId} className="text-sm text-slate-600">
      {question.help}
    </p>
  );
  const errorText = error && (
    <p id={errorId} className="text-sm font-medium text-red-700">
      {error}
    </p>
  );

  if (question.type === "yes_no" || question.type === "choice") {
    const options =
      question.type === "yes_no"
        ? [
            { value: YES, label: "Sí" },
            { value: NO, label: "No" },
          ]
        : question.options;
    return (
      <fieldset
        id={`pregunta-${question.id}`}
        tabIndex={-1}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        className="space-y-2 rounded-lg focus:outline-none"
      >
        <legend className="mb-1 text-sm font-medium text-slate-800">{label}</legend>
        {help}
        <div
          className={cn(
            "flex flex-wrap gap-2",
            question.type === "choice" && options.length > 3 && "flex-col sm:flex-row",
          )}
        >
          {options.map((option) => (
            <label
              key={option.value}
              className={cn(
                "flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border px-4 py-2 text-base",
                value === option.value ? "border-brand-700 bg-brand-50" : "border-slate-300 bg-white",
              )}
            >
              <input
                type="radio"
                name={question.id}
                value={option.value}
                checked={value === option.value}
                required={question.required}
                onChange={() => onChange(option.value)}
                className="size-4 accent-brand-700"
              />
              {option.label}
            </label>
          ))}
        </div>
        {errorText}
      </fieldset>
    );
  }

  const common = {
    id: `pregunta-${question.id}`,
    name: question.id,
    value,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    "aria-required": question.required || undefined,
  } as const;
  return (
    <div className="space-y-1.5">
      <label htmlFor={common.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {question.type === "date" ? (
        <Input type="date" {...common} onChange={(event) => onChange(event.target.value)} />
      ) : question.multiline ? (
        <Textarea
          {...common}
          rows={3}
          maxLength={question.maxLength}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <Input
          {...common}
          type={question.format === "phone" ? "tel" : "text"}
          inputMode={question.format === "phone" ? "tel" : undefined}
          autoComplete={question.autoComplete ?? (question.format === "phone" ? "tel" : undefined)}
          maxLength={question.maxLength}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {help}
      {errorText}
    </div>
  );
}
