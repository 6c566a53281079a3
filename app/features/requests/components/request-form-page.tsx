import { CheckCircle2 } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { ensureSubmissionId, SubmissionIdField } from "~/lib/submission-id";
import type { FieldErrors } from "~/lib/form-errors";

export type RequestActionResult = { ok: true; reference: string } | { ok: false; errors: FieldErrors };

interface RequestFormPageProps {
  title: string;
  intro: React.ReactNode;
  result: RequestActionResult | undefined;
  successTitle: string;
  successBody: string;
  submitLabel: string;
  children: (errors: FieldErrors) => React.ReactNode;
}

/** A validated, stored request with a confirmation (used by /eliminar-datos and /devolver-llamada). */
export function RequestFormPage({
  title,
  intro,
  result,
  successTitle,
  successBody,
  submitLabel,
  children,
}: RequestFormPageProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = result && !result.ok ? result.errors : {};

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
            Número de solicitud: <strong className="font-mono">{result.reference}</strong>
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
            onSubmit={ensureSubmissionId}
            className="mt-8 space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
          >
            <SubmissionIdField />
            {Object.keys(errors).length > 0 && (
              <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800">
                {errors.form ?? "Revisa los campos marcados."}
              </p>
            )}
            {children(errors)}
            <div>
              <label className="flex items-start gap-3 text-sm text-slate-700">
                <input
                  type="checkbox"
                  name="consent"
                  required
                  className="mt-0.5 size-5 shrink-0 accent-brand-700"
                />
                <span>
                  Declaro que los datos son correctos y acepto su uso para responder esta solicitud, según la{" "}
                  <Link to="/politica-privacidad" className="font-medium text-brand-700 underline">
                    Política de Privacidad
                  </Link>
                  .
                </span>
              </label>
              {errors.consent && <p className="mt-1 text-sm font-medium text-red-700">{errors.consent}</p>}
            </div>
            <Button type="submit" disabled={busy} className="w-full">
              {busy ? "Enviando..." : submitLabel}
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}
