import { CheckCircle2 } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import type { z } from "zod";
import { ConsentField, FormAlert } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import type { ActionResult } from "~/lib/base/action-result";
import { ensureSubmissionId, SubmissionIdField } from "~/lib/submission-id";
import { useValidatedForm } from "~/lib/validated-form";
import type { RequestReceipt } from "../request-schemas";

interface RequestFormPageProps {
  title: string;
  intro: React.ReactNode;
  /** The action's schema, loaded when the form is first used (`import("…/request-schemas")`). */
  loadSchema: () => Promise<z.ZodType<Record<string, unknown>>>;
  result: ActionResult<RequestReceipt> | undefined;
  successTitle: string;
  successBody: string;
  submitLabel: string;
  children: (error: (field: string) => string | undefined) => React.ReactNode;
}

/** A validated, stored request with a confirmation (used by /eliminar-datos and /devolver-llamada). */
export function RequestFormPage({
  title,
  intro,
  loadSchema,
  result,
  successTitle,
  successBody,
  submitLabel,
  children,
}: RequestFormPageProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const form = useValidatedForm(loadSchema, result, { onSubmit: ensureSubmissionId });
  // A refusal of the whole form (the hourly budget) says why; field errors get the generic line above the fields.
  const formMessage =
    result && !result.ok && !result.fieldErrors
      ? result.message
      : form.hasErrors
        ? "Revisa los campos marcados."
        : undefined;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-3xl font-extrabold">{title}</h1>
      {result?.ok ? (
        <div
          role="status"
          className="mt-8 rounded-2xl bg-brand-50 p-8 text-center"
          data-testid="request-success"
        >
          <CheckCircle2 aria-hidden className="mx-auto size-12 text-brand-700" />
          <p className="mt-4 text-xl font-semibold">{successTitle}</p>
          <p className="mt-2 text-slate-700">{successBody}</p>
          <p className="mt-4 text-sm text-slate-600">
            Número de solicitud: <strong className="font-mono">{result.data.reference}</strong>
          </p>
          <Link
            to="/"
            className="mt-6 inline-flex rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white"
          >
            Volver al inicio
          </Link>
        </div>
      ) : (
        <>
          <div className="mt-4 space-y-3 text-slate-700">{intro}</div>
          <Form
            method="post"
            {...form.formProps}
            className="mt-8 space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
          >
            <SubmissionIdField />
            <FormAlert message={formMessage} />
            {children(form.error)}
            <ConsentField error={form.error("consent")}>
              Declaro que los datos son correctos y acepto su uso para responder esta solicitud, según la{" "}
              <Link to="/politica-privacidad" className="font-medium text-brand-700 underline">
                Política de Privacidad
              </Link>
              .
            </ConsentField>
            <Button type="submit" disabled={busy} className="w-full">
              {busy ? "Enviando..." : submitLabel}
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}
