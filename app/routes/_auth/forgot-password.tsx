import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/forgot-password";
import { EmailField } from "~/components/form-fields";
import { PASSWORD_RESET_LINK_LIFETIME } from "~/domain/account-links";
import { Button } from "~/components/ui/button";
import { requestPasswordReset } from "~/features/auth/auth-service.server";
import { forgotPasswordSchema } from "~/features/auth/password-reset-schema";
import { actionFailure, actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { validationResult } from "~/lib/base/errors.server";
import { readForm } from "~/lib/request.server";
import { useValidatedForm } from "~/lib/validated-form";

export const meta: Route.MetaFunction = () => [{ title: "Recuperar contraseña | Río Clínica" }];

const loadSchema = () =>
  import("~/features/auth/password-reset-schema").then((module) => module.forgotPasswordSchema);

export async function action({ request }: Route.ActionArgs) {
  const parsed = forgotPasswordSchema.safeParse(await readForm(request));
  if (!parsed.success) return validationResult(parsed.error, "Ingresa tu e-mail.");
  const outcome = await requestPasswordReset(request, parsed.data.email);
  if (outcome === "rate-limited") {
    return data<ActionResult>(
      actionFailure("RATE_LIMITED", "Demasiados intentos. Espera unos minutos e inténtalo nuevamente."),
      { status: 429 },
    );
  }
  return data<ActionResult>(actionSuccess());
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const form = useValidatedForm(loadSchema, actionData);
  // The e-mail is the only field: a refusal of the whole form (too many attempts) shows under it too.
  const error = form.error("email") ?? (actionData && !actionData.ok ? actionData.message : undefined);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold">Recuperar contraseña</h1>
      {actionData?.ok ? (
        <p role="status" className="mt-6 rounded-lg bg-brand-50 p-4 text-brand-900">
          Si existe una cuenta con ese correo, te enviamos un enlace para elegir una nueva contraseña. Revisa
          tu bandeja de entrada (y la carpeta de spam). El enlace vence en {PASSWORD_RESET_LINK_LIFETIME}.
        </p>
      ) : (
        <Form method="post" {...form.formProps} className="mt-6 space-y-4">
          <p className="text-slate-700">Ingresa el correo de tu cuenta y te enviaremos un enlace.</p>
          <EmailField label="Correo electrónico" error={error} required />
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? "Enviando..." : "Enviar enlace"}
          </Button>
        </Form>
      )}
      <p className="mt-6 text-sm">
        <Link to="/auth" className="font-medium text-brand-700 underline">
          Volver a iniciar sesión
        </Link>
      </p>
    </div>
  );
}
