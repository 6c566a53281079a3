import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/data-rights-request";
import {
  ConsentField,
  EmailField,
  FormAlert,
  InputField,
  NameField,
  PhoneField,
  SelectField,
  TextareaField,
} from "~/components/form-fields";
import { RutField } from "~/components/rut-field";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { formatDate } from "~/domain/format";
import { privacyRights } from "~/domain/privacy";
import { rightDescriptions } from "~/domain/privacy-requests";
import { publicReceiptMessage } from "~/domain/privacy-verification";
import { RequestConfirmed } from "~/features/privacy/components/request-confirmed";
import { requestReference } from "~/features/privacy/request-messages";
import { publicRequestSchema, verificationCodeSchema } from "~/features/privacy/request-schemas";
import { confirmByCode, createPublicRequest } from "~/features/privacy/request-service.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { isAppError } from "~/lib/base/errors";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { rateLimitIp } from "~/lib/client-ip.server";
import { publicWriter } from "~/lib/public-write-limit.server";
import { readForm } from "~/lib/request.server";
import { clinicFromMatches, pageMeta } from "~/lib/seo";
import { ensureSubmissionId, SubmissionIdField } from "~/lib/submission-id";
import { useValidatedForm } from "~/lib/validated-form";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Solicitud de eliminación y derechos sobre tus datos | Río Clínica",
    description:
      "Ejerce tus derechos de acceso, rectificación, supresión, oposición, portabilidad o bloqueo sobre tus datos personales.",
    path: "/eliminar-datos",
    clinic: clinicFromMatches(matches),
  });

/** What the page shows after a step: the proof sent (with the code form for WhatsApp), or the request confirmed. */
type Step =
  | {
      step: "sent";
      via: "email" | "whatsapp";
      reference: string;
      requestId: string | null;
      message: string;
      /** A refused code: the code form stays, with why. */
      error?: string;
    }
  | { step: "confirmed"; reference: string; dueDateLabel: string };

const loadSchema = () =>
  import("~/features/privacy/request-schemas").then((module) => module.publicRequestSchema);

/**
 * The public entry to the rights workflow (Ley 21.719, ADR 037): anyone states the right and an e-mail or phone; a
 * link (e-mail) or a code (WhatsApp) proves control before anything is processed. The answer is the same whether
 * or not the clinic holds data about that contact. Rate-limited per client address (the form's hourly budget, and
 * the code attempts).
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const db = await getDb();
  if (form.intent === "codigo") {
    const parsed = verificationCodeSchema.safeParse(form);
    if (!parsed.success) {
      const requestId = form.request ?? "";
      if (!/^[0-9a-f-]{36}$/i.test(requestId)) return validationResult(parsed.error);
      return data(
        actionSuccess<Step>({
          step: "sent",
          via: "whatsapp",
          reference: requestReference(requestId),
          requestId,
          message: publicReceiptMessage("whatsapp"),
          error: parsed.error.issues[0]?.message ?? "Ingresa el código de 6 dígitos.",
        }),
        { status: 400 },
      );
    }
    try {
      const confirmed = await confirmByCode(db, parsed.data, rateLimitIp(request));
      return data(
        actionSuccess<Step>({
          step: "confirmed",
          reference: confirmed.reference,
          dueDateLabel: formatDate(confirmed.dueDate),
        }),
      );
    } catch (error) {
      if (!isAppError(error)) throw error;
      return data(
        actionSuccess<Step>({
          step: "sent",
          via: "whatsapp",
          reference: requestReference(parsed.data.request),
          requestId: parsed.data.request,
          message: publicReceiptMessage("whatsapp"),
          error: error.message,
        }),
        { status: error.status },
      );
    }
  }
  const parsed = publicRequestSchema.safeParse(form);
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const receipt = await createPublicRequest(db, parsed.data, publicWriter(request));
    return data(
      actionSuccess<Step>({
        step: "sent",
        via: receipt.via,
        reference: receipt.reference,
        requestId: receipt.via === "whatsapp" ? receipt.id : null,
        message: publicReceiptMessage(receipt.via),
      }),
    );
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function DataRightsRequestPage({ actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult<Step> | undefined;
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-3xl font-extrabold">Solicitud sobre tus datos personales</h1>
      {result?.ok && result.data.step === "confirmed" ? (
        <RequestConfirmed reference={result.data.reference} dueDateLabel={result.data.dueDateLabel} />
      ) : result?.ok && result.data.step === "sent" ? (
        <Sent step={result.data} />
      ) : (
        <RequestForm result={result} />
      )}
    </div>
  );
}

function RequestForm({ result }: { result: ActionResult<Step> | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const form = useValidatedForm(loadSchema, result, { onSubmit: ensureSubmissionId });
  const formMessage =
    result && !result.ok && !result.fieldErrors
      ? result.message
      : form.hasErrors
        ? "Revisa los campos marcados."
        : undefined;
  return (
    <>
      <div className="mt-4 space-y-3 text-slate-700">
        <p>
          Puedes pedir acceso, rectificación, supresión (eliminación), portabilidad, oposición o bloqueo de
          tus datos. Es gratis. Para proteger tus datos, primero confirmamos que el e-mail o el teléfono que
          indicas es tuyo: te enviaremos un enlace por e-mail o, si solo nos das un teléfono, un código por
          WhatsApp. No hacemos nada con la solicitud hasta que lo confirmes.
        </p>
        <p>
          Respondemos dentro de 30 días corridos desde que la envías. La ficha clínica debe conservarse al
          menos 15 años por ley (Ley 20.584): en ese caso te explicaremos qué datos eliminamos y cuáles
          conservamos, por qué y hasta cuándo.
        </p>
      </div>
      <Form
        method="post"
        {...form.formProps}
        className="mt-8 space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <SubmissionIdField />
        <input type="hidden" name="intent" value="solicitar" />
        <FormAlert message={formMessage} />
        <SelectField
          label="¿Qué derecho quieres ejercer?"
          error={form.error("right")}
          name="right"
          required
          defaultValue="supresion"
        >
          {privacyRights.map((value) => (
            <option key={value} value={value}>
              {rightDescriptions[value]}
            </option>
          ))}
        </SelectField>
        <NameField label="Nombre completo" error={form.error("name")} required />
        <EmailField
          label="E-mail"
          error={form.error("email")}
          hint="Te enviaremos el enlace de confirmación y la respuesta a este e-mail. Si no tienes, deja tu teléfono."
        />
        <PhoneField
          label="Teléfono (opcional si das un e-mail)"
          error={form.error("phone")}
          name="phone"
          hint="Sin e-mail, te enviaremos un código por WhatsApp a este número."
        />
        <RutField
          label="RUT (opcional)"
          error={form.error("rut")}
          hint="Nos ayuda a encontrar tu ficha si eres paciente."
        />
        <TextareaField
          label="Detalle de tu solicitud"
          error={form.error("details")}
          name="details"
          rows={4}
          maxLength={2000}
          hint="Para una rectificación, indica qué dato está mal y cuál es el correcto."
        />
        <div>
          <label className="flex items-start gap-3 text-sm text-slate-700">
            <input
              type="checkbox"
              name="blockingRequested"
              className="mt-0.5 size-5 shrink-0 accent-brand-700"
              aria-describedby="blocking-hint"
            />
            <span>
              Quiero que bloqueen mis datos mientras deciden (no se usarán para nada más que conservarlos).
            </span>
          </label>
          <p id="blocking-hint" className="mt-1 text-xs text-slate-600">
            Disponible con rectificación, supresión u oposición.
          </p>
          {form.error("blockingRequested") && (
            <p className="mt-1 text-sm font-medium text-red-700">{form.error("blockingRequested")}</p>
          )}
        </div>
        <ConsentField error={form.error("consent")}>
          Declaro que los datos son correctos y acepto su uso para responder esta solicitud, según la{" "}
          <Link to="/politica-privacidad" className="font-medium text-brand-700 underline">
            Política de Privacidad
          </Link>
          .
        </ConsentField>
        <Button type="submit" disabled={busy} className="w-full">
          {busy ? "Enviando..." : "Enviar solicitud"}
        </Button>
      </Form>
    </>
  );
}

function Sent({ step }: { step: Extract<Step, { step: "sent" }> }) {
  return (
    <div className="mt-8 space-y-6">
      <div role="status" className="rounded-2xl bg-brand-50 p-8" data-testid="request-sent">
        <p className="text-xl font-semibold">Confirma tu solicitud</p>
        <p className="mt-2 text-slate-700">{step.message}</p>
        <p className="mt-4 text-sm text-slate-600">
          Número de solicitud: <strong className="font-mono">{step.reference}</strong>
        </p>
      </div>
      {step.via === "whatsapp" && step.requestId && (
        <CodeForm requestId={step.requestId} error={step.error} />
      )}
    </div>
  );
}

function CodeForm({ requestId, error }: { requestId: string; error?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <Form method="post" className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <input type="hidden" name="intent" value="codigo" />
      <input type="hidden" name="request" value={requestId} />
      <InputField
        label="Código de 6 dígitos"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={9}
        required
        error={error}
      />
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? "Confirmando..." : "Confirmar solicitud"}
      </Button>
    </Form>
  );
}
