import { ShieldCheck, ShieldOff } from "lucide-react";
import { data, Form, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/security";
import { Button } from "~/components/ui/button";
import { InputField } from "~/components/form-fields";
import { PasswordField } from "~/components/password-field";
import {
  changePassword,
  confirmTwoFactor,
  disableTwoFactor,
  newBackupCodes,
  startTwoFactor,
  type SecurityOutcome,
} from "~/features/auth/security-service.server";
import {
  securityActionSchema,
  type SecurityActionData,
  type SecurityResultData,
} from "~/features/auth/security-schema";
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [{ title: "Seguridad de la cuenta | Río Clínica" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return { twoFactorEnabled: user.twoFactorEnabled, email: user.email };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const parsed = securityActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  const input = parsed.data;
  const { request } = args;
  try {
    const outcome =
      input.intent === "enable"
        ? await startTwoFactor(request, user.id, input.password)
        : input.intent === "confirm"
          ? await confirmTwoFactor(request, user.id, input.code)
          : input.intent === "disable"
            ? await disableTwoFactor(request, user.id, input.password)
            : input.intent === "backup-codes"
              ? await newBackupCodes(request, user.id, input.password)
              : await changePassword(request, user.id, input.currentPassword, input.newPassword);
    // The session cookies Better Auth renewed go to the browser, never into the page's data.
    const { headers, ...visible } = outcome as SecurityOutcome & { headers?: Headers };
    return data<SecurityActionData>(actionSuccess(visible as SecurityResultData), { headers });
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const error = actionData && !actionData.ok ? actionData.message : undefined;
  const outcome = actionData?.ok ? actionData.data : undefined;
  const enrolment = outcome?.kind === "enrol" ? outcome : undefined;
  const codes = outcome && "backupCodes" in outcome ? outcome.backupCodes : undefined;

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold">Seguridad de la cuenta</h1>
      {searchParams.get("requerido") === "1" && !loaderData.twoFactorEnabled && (
        <p role="alert" className="mt-4 rounded-lg bg-amber-50 p-4 text-amber-900">
          Tu rol en la clínica requiere verificación en dos pasos. Actívala para continuar.
        </p>
      )}
      {error && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-4 text-red-900">
          {error}
        </p>
      )}
      {outcome?.kind === "enabled" && (
        <p role="status" className="mt-4 rounded-lg bg-brand-50 p-4 text-brand-900">
          La verificación en dos pasos quedó activada.
        </p>
      )}
      {outcome?.kind === "disabled" && (
        <p role="status" className="mt-4 rounded-lg bg-brand-50 p-4 text-brand-900">
          La verificación en dos pasos quedó desactivada.
        </p>
      )}
      {outcome?.kind === "password-changed" && (
        <p role="status" className="mt-4 rounded-lg bg-brand-50 p-4 text-brand-900">
          Tu contraseña fue cambiada y cerramos tus otras sesiones.
        </p>
      )}

      <section
        className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
        aria-labelledby="dos-pasos"
      >
        <h2 id="dos-pasos" className="flex items-center gap-2 text-xl font-semibold">
          {loaderData.twoFactorEnabled ? (
            <ShieldCheck aria-hidden className="size-6 text-brand-700" />
          ) : (
            <ShieldOff aria-hidden className="size-6 text-slate-500" />
          )}
          Verificación en dos pasos: {loaderData.twoFactorEnabled ? "activada" : "desactivada"}
        </h2>
        <p className="mt-2 text-slate-700">
          Con una aplicación de autenticación (Google Authenticator, Microsoft Authenticator, 1Password u
          otra) te pediremos un código de 6 dígitos además de tu contraseña.
        </p>

        {enrolment ? (
          <div className="mt-6 space-y-4">
            <p>1. Escanea este código con tu aplicación (o ingresa la clave manualmente).</p>
            <div
              className="w-fit rounded-lg bg-white p-2 ring-1 ring-slate-200"
              role="img"
              aria-label="Código QR para tu aplicación de autenticación"
            >
              {/* SVG produced on our server by the qrcode library from the TOTP URI. */}
              <div dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
            </div>
            <p className="text-sm">
              Clave:{" "}
              <code className="rounded bg-slate-100 px-2 py-1 font-mono" data-testid="totp-secret">
                {enrolment.secret}
              </code>
            </p>
            <BackupCodes codes={enrolment.backupCodes} />
            <Form method="post" className="space-y-3">
              <input type="hidden" name="intent" value="confirm" />
              <InputField
                label="2. Código de 6 dígitos de tu aplicación"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                maxLength={6}
              />
              <Button type="submit" disabled={busy}>
                {busy ? "Verificando..." : "Activar verificación en dos pasos"}
              </Button>
            </Form>
          </div>
        ) : loaderData.twoFactorEnabled ? (
          <div className="mt-6 grid gap-6 sm:grid-cols-2">
            <PasswordForm intent="backup-codes" label="Generar nuevos códigos de respaldo" busy={busy} />
            <PasswordForm intent="disable" label="Desactivar" busy={busy} variant="secondary" />
            {codes && (
              <div className="sm:col-span-2">
                <BackupCodes codes={codes} />
              </div>
            )}
          </div>
        ) : (
          <div className="mt-6 max-w-sm">
            <PasswordForm intent="enable" label="Activar verificación en dos pasos" busy={busy} />
          </div>
        )}
      </section>

      <section
        className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
        aria-labelledby="cambiar-clave"
      >
        <h2 id="cambiar-clave" className="text-xl font-semibold">
          Cambiar contraseña
        </h2>
        <p className="mt-2 text-slate-700">Al cambiarla cerraremos todas tus otras sesiones.</p>
        <Form method="post" className="mt-4 max-w-sm space-y-4">
          <input type="hidden" name="intent" value="change-password" />
          <PasswordField label="Contraseña actual" name="currentPassword" autoComplete="current-password" />
          <PasswordField
            label="Nueva contraseña"
            hint="Al menos 8 caracteres, con letras y números."
            name="newPassword"
            autoComplete="new-password"
            minLength={8}
          />
          <PasswordField label="Repite la nueva contraseña" name="confirm" autoComplete="new-password" />
          <Button type="submit" disabled={busy}>
            {busy ? "Guardando..." : "Cambiar contraseña"}
          </Button>
        </Form>
      </section>
    </div>
  );
}

function PasswordForm({
  intent,
  label,
  busy,
  variant = "primary",
}: {
  intent: string;
  label: string;
  busy: boolean;
  variant?: "primary" | "secondary";
}) {
  return (
    <Form method="post" className="space-y-3">
      <input type="hidden" name="intent" value={intent} />
      <PasswordField label="Confirma con tu contraseña" name="password" autoComplete="current-password" />
      <Button type="submit" variant={variant} disabled={busy}>
        {label}
      </Button>
    </Form>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <div className="rounded-lg bg-amber-50 p-4">
      <p className="font-semibold text-amber-900">Guarda estos códigos de respaldo en un lugar seguro.</p>
      <p className="text-sm text-amber-900">Cada uno sirve una sola vez si pierdes acceso a tu aplicación.</p>
      <ul className="mt-3 grid grid-cols-2 gap-1 font-mono text-sm" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}
