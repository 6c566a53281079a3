import { LogOut } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, redirect, redirectDocument, useNavigation } from "react-router";
import type { Route } from "./+types/clinical-record";
import { FormAlert, InputField } from "~/components/form-fields";
import { RutField } from "~/components/rut-field";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { RECORD_CODE_SENT_MESSAGE } from "~/domain/record-code";
import { validateRut } from "~/domain/rut";
import {
  PatientSummary,
  RecordOpenings,
  RecordTabs,
} from "~/features/clinical-record/components/record-dashboard";
import { passwordMatches } from "~/features/auth/security-service.server";
import {
  balancePaymentSchema,
  codeFormSchema,
  isBalanceFailure,
  reopenPasswordSchema,
  rutFormSchema,
  type BalanceActionFailure,
  type PatientRecordPage,
} from "~/features/clinical-record/record-schema";
import { payRecordBalance } from "~/features/clinical-record/record-balance.server";
import type { ReadContext } from "~/features/clinical-record/record-actor.server";
import {
  closedRecordView,
  closeRecord,
  hasOpenCode,
  reopenWithPassword,
  requestRecordCode,
  requestReopenCode,
  verifyRecordCode,
  withdrawRecordCode,
} from "~/features/clinical-record/record-binding.server";
import { patientRecord } from "~/features/clinical-record/record-reading.server";
import { recordOpenings } from "~/features/clinical-record/record-register.server";
import { checkoutPath } from "~/features/payments/payment-paths";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import {
  actionFailure,
  fieldError,
  formLevelMessage,
  validationFailure,
  type AnyActionResult,
} from "~/lib/base/action-result";
import { clientIp, rateLimitIp } from "~/lib/client-ip.server";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { isAppError } from "~/lib/base/errors";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Mi Ficha | Río Clínica" },
  { name: "robots", content: "noindex" },
];

const PATH = "/paciente/ficha";

function readContext(request: Request): ReadContext {
  return { ip: clientIp(request), rateIp: rateLimitIp(request) };
}

export async function loader(args: Route.LoaderArgs): Promise<PatientRecordPage> {
  const user = await requireUser(args);
  if (!user.emailVerified) return { view: "unverified" };
  const db = await getDb();
  try {
    const record = await patientRecord(db, user, readContext(args.request));
    if (record) {
      return {
        view: "record",
        record,
        accesses: await recordOpenings(db, user),
        onlinePayment: webpayClient() !== null,
      };
    }
  } catch (error) {
    if (!isAppError(error) || error.code !== "UPSTREAM_FAILED") throw error;
    return { view: "error", message: error.message };
  }
  if (await hasOpenCode(db, user)) return { view: "code", message: RECORD_CODE_SENT_MESSAGE };
  return (await closedRecordView(db, user)) ?? { view: "rut" };
}

/** A refused 'Pagar saldo' answered on its budget's own form: the amount's problems beside the field. */
function balanceFailure(budgetId: string, failure: Omit<BalanceActionFailure, "budgetId">, status: number) {
  return data({ ...failure, budgetId } satisfies BalanceActionFailure, { status });
}

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const form = await readForm(args.request);
  const db = await getDb();
  const context = readContext(args.request);
  if (form.intent === "pay-balance") {
    const budgetId = typeof form.budgetId === "string" ? form.budgetId.slice(0, 40) : "";
    const parsed = balancePaymentSchema.safeParse(form);
    if (!parsed.success) return balanceFailure(budgetId, validationFailure(parsed.error), 400);
    try {
      const paymentId = await payRecordBalance(db, user, parsed.data, context, webpayClient());
      // A document load, not a client navigation: the checkout page's own CSP (form-action allows Webpay's form)
      // must be the one in force when it posts the token; this page's allows only 'self'.
      return redirectDocument(checkoutPath(paymentId));
    } catch (error) {
      if (!isAppError(error)) throw error;
      const fields = error.code === "VALIDATION" ? { amount: [error.message] } : undefined;
      return balanceFailure(budgetId, actionFailure(error.code, error.message, fields), error.status);
    }
  }
  try {
    if (form.intent === "close") {
      await closeRecord(db, user);
      return redirect(PATH);
    }
    if (form.intent === "restart") {
      await withdrawRecordCode(db, user);
      return redirect(PATH);
    }
    if (form.intent === "password") {
      const parsed = reopenPasswordSchema.safeParse(form);
      if (!parsed.success) return validationResult(parsed.error);
      await reopenWithPassword(db, user, () => passwordMatches(args.request, parsed.data.password), context);
      return redirect(PATH);
    }
    if (form.intent === "reopen-code") {
      await requestReopenCode(db, user, context);
      return redirect(PATH);
    }
    if (form.intent === "code") {
      const parsed = codeFormSchema.safeParse(form);
      if (!parsed.success) return validationResult(parsed.error);
      await verifyRecordCode(db, user, parsed.data.code, context);
      return redirect(PATH);
    }
    const parsed = rutFormSchema.safeParse({ ...form, intent: "rut" });
    if (!parsed.success) return validationResult(parsed.error);
    await requestRecordCode(db, user, parsed.data.rut, context);
    return redirect(PATH);
  } catch (error) {
    if (isAppError(error)) return appErrorResult(error);
    throw error;
  }
}

function Heading({ children }: { children: React.ReactNode }) {
  return <h1 className="text-3xl font-bold">{children}</h1>;
}

function RutView({ result, busy }: { result: AnyActionResult | undefined; busy: boolean }) {
  // The browser checks with the server's own rules (domain/rut.ts) before sending; without JS the server answers.
  const [browserError, setBrowserError] = useState<string | undefined>();
  const checkRut = (event: React.FormEvent<HTMLFormElement>) => {
    const checked = validateRut(String(new FormData(event.currentTarget).get("rut") ?? ""));
    setBrowserError(checked.ok ? undefined : checked.message);
    if (!checked.ok) event.preventDefault();
  };
  return (
    <div className="mx-auto max-w-md">
      <Heading>Acceso a Portal Paciente</Heading>
      <p className="mt-2 text-slate-700">
        Ingresa tu RUT. Te enviaremos un código al teléfono o correo que la clínica tiene registrado para
        vincular tu ficha clínica a esta cuenta.
      </p>
      <Form
        method="post"
        noValidate
        onSubmit={checkRut}
        className="mt-6 space-y-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      >
        <input type="hidden" name="intent" value="rut" />
        <FormAlert message={formLevelMessage(result)} />
        <RutField label="RUT" error={browserError ?? fieldError(result, "rut")} required />
        <Button type="submit" disabled={busy} className="w-full">
          {busy ? "Consultando…" : "Continuar"}
        </Button>
      </Form>
    </div>
  );
}

function CodeView({
  message,
  result,
  busy,
}: {
  message: string;
  result: AnyActionResult | undefined;
  busy: boolean;
}) {
  return (
    <div className="mx-auto max-w-md">
      <Heading>Acceso a Portal Paciente</Heading>
      <p role="status" className="mt-4 rounded-lg bg-brand-50 p-4 text-brand-900 ring-1 ring-brand-100">
        {message}
      </p>
      <Form
        method="post"
        noValidate
        className="mt-6 space-y-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      >
        <input type="hidden" name="intent" value="code" />
        <FormAlert message={formLevelMessage(result)} />
        <InputField
          label="Código de 6 dígitos"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          error={fieldError(result, "code")}
          required
        />
        <Button type="submit" disabled={busy} className="w-full">
          Verificar código
        </Button>
      </Form>
      <Form method="post" className="mt-4 text-center">
        <input type="hidden" name="intent" value="restart" />
        <button type="submit" className="text-sm font-semibold text-brand-700 underline">
          Ingresar otro RUT o pedir un código nuevo
        </button>
      </Form>
    </div>
  );
}

function ClosedView({
  password,
  result,
  busy,
}: {
  password: boolean;
  result: AnyActionResult | undefined;
  busy: boolean;
}) {
  return (
    <div className="mx-auto max-w-md">
      <Heading>Acceso a Portal Paciente</Heading>
      <p className="mt-2 text-slate-700">
        Cerraste tu ficha clínica. Para volver a abrirla, confirma que eres tú
        {password ? " con la contraseña de tu cuenta o con un código nuevo" : " con un código nuevo"}.
      </p>
      <FormAlert message={formLevelMessage(result)} className="mt-4" />
      {password && (
        <Form
          method="post"
          noValidate
          className="mt-6 space-y-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
        >
          <input type="hidden" name="intent" value="password" />
          <InputField
            label="Contraseña de tu cuenta"
            name="password"
            type="password"
            autoComplete="current-password"
            maxLength={128}
            error={fieldError(result, "password")}
            required
          />
          <Button type="submit" disabled={busy} className="w-full">
            Abrir mi ficha
          </Button>
        </Form>
      )}
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="reopen-code" />
        <Button type="submit" variant="secondary" disabled={busy} className="w-full">
          Enviarme un código nuevo
        </Button>
      </Form>
    </div>
  );
}

function CloseButton() {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="close" />
      <Button type="submit" variant="secondary">
        <LogOut aria-hidden className="size-4" /> Cerrar Sesión
      </Button>
    </Form>
  );
}

export default function ClinicalRecordPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const result = actionData as AnyActionResult | undefined;
  const page = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      {page.view === "unverified" && (
        <div className="mx-auto max-w-md">
          <Heading>Acceso a Portal Paciente</Heading>
          <p role="alert" className="mt-4 rounded-lg bg-yellow-50 p-4 text-yellow-900 ring-1 ring-yellow-200">
            Confirma tu correo electrónico antes de abrir tu ficha clínica. Puedes pedir otro enlace desde{" "}
            <Link to="/paciente" className="font-semibold underline">
              tu panel
            </Link>
            .
          </p>
        </div>
      )}
      {page.view === "rut" && <RutView result={result} busy={busy} />}
      {page.view === "code" && <CodeView message={page.message} result={result} busy={busy} />}
      {page.view === "closed" && <ClosedView password={page.password} result={result} busy={busy} />}
      {page.view === "error" && (
        <div>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <Heading>Portal Paciente</Heading>
            <CloseButton />
          </div>
          <p role="alert" className="mt-6 rounded-lg bg-red-50 p-4 font-medium text-red-800">
            {page.message}
          </p>
        </div>
      )}
      {page.view === "record" && (
        <div>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <Heading>Portal Paciente</Heading>
            <CloseButton />
          </div>
          <PatientSummary record={page.record} />
          <RecordTabs
            record={page.record}
            balancePayment={{
              online: page.onlinePayment,
              failure: isBalanceFailure(actionData) ? actionData : undefined,
              busy,
            }}
          />
          <RecordOpenings accesses={page.accesses} />
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <Heading>Acceso a Portal Paciente</Heading>
      <p role="alert" className="mt-4 rounded-lg bg-red-50 p-4 text-red-800">
        Error al obtener datos del paciente
      </p>
    </div>
  );
}
