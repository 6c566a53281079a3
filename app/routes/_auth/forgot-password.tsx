import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/forgot-password";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/field";
import { requestPasswordReset } from "~/features/auth/auth-service.server";
import { readForm } from "~/lib/request.server";
import { emailAddress } from "~/lib/validation";

export const meta: Route.MetaFunction = () => [{ title: "Recuperar contraseña | Río Clínica" }];

type ActionData = { ok: true } | { ok: false; error: string };

export async function action({ request }: Route.ActionArgs) {
  const parsed = z.object({ email: emailAddress }).safeParse(await readForm(request));
  if (!parsed.success) {
    return data<ActionData>(
      { ok: false, error: parsed.error.issues[0]?.message ?? "Ingresa tu e-mail." },
      { status: 400 },
    );
  }
  const outcome = await requestPasswordReset(request, parsed.data.email);
  if (outcome === "rate-limited") {
    return data<ActionData>(
      { ok: false, error: "Demasiados intentos. Espera unos minutos e inténtalo nuevamente." },
      { status: 429 },
    );
  }
  return data<ActionData>({ ok: true });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold">Recuperar contraseña</h1>
      {actionData?.ok ? (
        <p role="status" className="mt-6 rounded-lg bg-brand-50 p-4 text-brand-900">
          Si existe una cuenta con ese correo, te enviamos un enlace para elegir una nueva contraseña. Revisa
          tu bandeja de entrada (y la carpeta de spam). El enlace vence en 1 hora.
        </p>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <p className="text-slate-700">Ingresa el correo de tu cuenta y te enviaremos un enlace.</p>
          <Field
            label="Correo electrónico"
            error={actionData && !actionData.ok ? actionData.error : undefined}
          >
            {(props) => (
              <Input {...props} name="email" type="email" autoComplete="email" required maxLength={254} />
            )}
          </Field>
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
