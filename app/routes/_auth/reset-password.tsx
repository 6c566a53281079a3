import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/reset-password";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/field";
import { passwordMeetsRule } from "~/domain/password-rule";
import { resetPassword } from "~/features/auth/auth-service.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [{ title: "Nueva contraseña | Río Clínica" }];

const RULE = "La contraseña debe tener al menos 8 caracteres e incluir letras y números.";
const schema = z
  .object({
    token: z.string().min(10, "El enlace no es válido.").max(200),
    password: z.string().refine(passwordMeetsRule, RULE),
    confirm: z.string(),
  })
  .refine((value) => value.password === value.confirm, {
    path: ["confirm"],
    message: "Las contraseñas no coinciden.",
  });

type ActionData = { ok: true } | { ok: false; errors: Record<string, string> };

/** Better Auth's reset link lands here as /auth/restablecer?token=… (or ?error=INVALID_TOKEN). */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  return { token: url.searchParams.get("token") ?? "", invalid: url.searchParams.has("error") };
}

export async function action({ request }: Route.ActionArgs) {
  const parsed = schema.safeParse(await readForm(request));
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
    return data<ActionData>({ ok: false, errors }, { status: 400 });
  }
  const outcome = await resetPassword(request, parsed.data.token, parsed.data.password);
  if (outcome === "rate-limited") {
    return data<ActionData>(
      { ok: false, errors: { form: "Demasiados intentos. Espera unos minutos." } },
      { status: 429 },
    );
  }
  if (outcome === "invalid") {
    return data<ActionData>(
      { ok: false, errors: { form: "El enlace venció o ya fue usado. Pide uno nuevo." } },
      { status: 400 },
    );
  }
  return data<ActionData>({ ok: true });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errors = actionData && !actionData.ok ? actionData.errors : {};
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
        <Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          {errors.form && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
              {errors.form}
            </p>
          )}
          <Field
            label="Nueva contraseña"
            error={errors.password}
            hint="Al menos 8 caracteres, con letras y números."
          >
            {(props) => (
              <Input
                {...props}
                name="password"
                type="password"
                autoComplete="new-password"
                required
                minLength={8}
                maxLength={128}
              />
            )}
          </Field>
          <Field label="Repite la contraseña" error={errors.confirm}>
            {(props) => (
              <Input
                {...props}
                name="confirm"
                type="password"
                autoComplete="new-password"
                required
                maxLength={128}
              />
            )}
          </Field>
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? "Guardando..." : "Guardar contraseña"}
          </Button>
        </Form>
      )}
    </div>
  );
}
