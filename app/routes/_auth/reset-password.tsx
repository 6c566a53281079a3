import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { FormAlert } from "~/components/form-fields";
import { PasswordField } from "~/components/password-field";
import { Button } from "~/components/ui/button";
import { resetPassword } from "~/features/auth/auth-service.server";
import { resetPasswordSchema } from "~/features/auth/password-reset-schema";
import { actionFailure, actionSuccess, formLevelMessage, type ActionResult } from "~/lib/base/action-result";
import { validationResult } from "~/lib/base/errors.server";
import { readForm } from "~/lib/request.server";
import { useValidatedForm } from "~/lib/validated-form";

export const meta: Route.MetaFunction = () => [{ title: "Nueva contraseña | Río Clínica" }];

/** Better Auth's reset link lands here as /auth/restablecer?token=… (or ?error=INVALID_TOKEN). */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  return { token: url.searchParams.get("token") ?? "", invalid: url.searchParams.has("error") };
}

const loadSchema = () =>
  import("~/features/auth/password-reset-schema").then((module) => module.resetPasswordSchema);

export async function action({ request }: Route.ActionArgs) {
  const parsed = resetPasswordSchema.safeParse(await readForm(request));
  if (!parsed.success) return validationResult(parsed.error);
  const outcome = await resetPassword(request, parsed.data.token, parsed.data.password);
  if (outcome === "rate-limited") {
    return data<ActionResult>(actionFailure("RATE_LIMITED", "Demasiados intentos. Espera unos minutos."), {
      status: 429,
    });
  }
  if (outcome === "invalid") {
    return data<ActionResult>(
      actionFailure("VALIDATION", "El enlace venció o ya fue usado. Pide uno nuevo."),
      { status: 400 },
    );
  }
  return data<ActionResult>(actionSuccess());
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const form = useValidatedForm(loadSchema, actionData);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold">Elige una nueva contraseña</h1>
      {actionData?.ok ? (
        <div role="status" className="mt-6 rounded-lg bg-brand-50 p-4 text-brand-900">
          <p>Tu contraseña fue cambiada y cerramos todas tus otras sesiones.</p>
          <Link to="/auth" className="mt-3 inline-block font-semibold underline">
            Iniciar sesión
          </Link>
        </div>
      ) : loaderData.invalid || !loaderData.token ? (
        <p role="alert" className="mt-6 rounded-lg bg-red-50 p-4 text-red-900">
          El enlace no es válido o ya venció.{" "}
          <Link to="/auth/recuperar" className="font-semibold underline">
            Pide uno nuevo
          </Link>
          .
        </p>
      ) : (
        <Form method="post" {...form.formProps} className="mt-6 space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <FormAlert message={formLevelMessage(actionData) ?? form.error("token")} />
          <PasswordField
            label="Nueva contraseña"
            error={form.error("password")}
            hint="Al menos 8 caracteres, con letras y números."
            name="password"
            autoComplete="new-password"
            minLength={8}
          />
          <PasswordField
            label="Repite la contraseña"
            error={form.error("confirm")}
            name="confirm"
            autoComplete="new-password"
          />
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? "Guardando..." : "Guardar contraseña"}
          </Button>
        </Form>
      )}
    </div>
  );
}
