import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { FormAlert, SelectField, TextareaField } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import type { ActionResult } from "~/lib/base/action-result";
import { ensureSubmissionId, SubmissionIdField } from "~/lib/submission-id";
import type { RequestRowDto } from "../request-dto";
import type { RightsRequestReceipt } from "../request-panel.server";
import { ClockBadge } from "./clock-badge";

/** The form's `intent` (the same as `RIGHTS_REQUEST_INTENT` on the server). */
const INTENT = "solicitud-derechos";

const choices = [
  {
    value: "rectificacion",
    label: "Rectificación: corregir un dato que no puedo editar (mi e-mail, datos en la ficha de la clínica)",
  },
  { value: "supresion", label: "Supresión: eliminar mis datos" },
  { value: "oposicion", label: "Oposición: que no usen mis datos para publicidad ni perfilamiento" },
  {
    value: "decisiones_automatizadas",
    label: "Decisiones automatizadas: que no me evalúen con puntajes automáticos",
  },
  { value: "bloqueo", label: "Bloqueo: que suspendan el uso de mis datos sin eliminarlos" },
] as const;

const withBlocking = new Set(["rectificacion", "supresion", "oposicion", "decisiones_automatizadas"]);

function error(result: ActionResult<RightsRequestReceipt> | undefined, field: string) {
  return result && !result.ok ? result.fieldErrors?.[field]?.[0] : undefined;
}

/**
 * Mis Datos' rights requests (/paciente/datos, /cuenta/datos): the person's requests with their state and due date,
 * and a form for what they cannot do themselves. The route's loader passes `loadRightsRequestPanel`'s data; its
 * action sends forms whose `intent` is "solicitud-derechos" to `rightsRequestPanelAction` and passes the result.
 */
export function RightsRequestPanel({
  requests,
  result,
}: {
  requests: RequestRowDto[];
  result?: ActionResult<RightsRequestReceipt>;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === INTENT;
  const [right, setRight] = useState<string>("rectificacion");
  return (
    <section
      aria-labelledby="rights-requests-heading"
      className="space-y-6"
      data-testid="rights-request-panel"
    >
      <h2 id="rights-requests-heading" className="text-xl font-semibold">
        Solicitudes sobre mis datos
      </h2>
      {requests.length === 0 ? (
        <p className="text-sm text-slate-600">No has hecho solicitudes.</p>
      ) : (
        <ul className="space-y-3">
          {requests.map((request) => (
            <li key={request.id} className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">
                  {request.rightLabel}{" "}
                  <span className="font-mono text-sm text-slate-600">N.º {request.reference}</span>
                </span>
                <Badge tone={request.statusTone}>{request.statusLabel}</Badge>
              </div>
              <p className="mt-1 text-sm text-slate-600">
                Enviada el <time dateTime={request.createdIso}>{request.createdLabel}</time>
              </p>
              {request.clock && (
                <div className="mt-2 text-sm">
                  <span className="sr-only">Plazo de respuesta: </span>
                  <ClockBadge clock={request.clock} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      <Form
        method="post"
        onSubmit={ensureSubmissionId}
        className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <h3 className="font-semibold">Nueva solicitud</h3>
        <p className="text-sm text-slate-700">
          Respondemos dentro de 30 días corridos. Los datos de tu perfil puedes corregirlos tú mismo; aquí
          pides lo que no puedes cambiar.
        </p>
        <SubmissionIdField />
        <input type="hidden" name="intent" value={INTENT} />
        <FormAlert message={result && !result.ok && !result.fieldErrors ? result.message : undefined} />
        {result?.ok && (
          <p role="status" className="rounded-lg bg-brand-50 p-3 text-sm font-medium text-brand-900">
            {result.message}
          </p>
        )}
        <SelectField
          label="¿Qué quieres pedir?"
          name="right"
          value={right}
          onChange={(event) => setRight(event.currentTarget.value)}
          error={error(result, "right")}
        >
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label={right === "rectificacion" ? "Qué dato está mal y cuál es el correcto" : "Detalle (opcional)"}
          name="details"
          rows={3}
          maxLength={2000}
          required={right === "rectificacion"}
          error={error(result, "details")}
        />
        {withBlocking.has(right) && (
          <label className="flex items-start gap-3 text-sm text-slate-700">
            <input
              type="checkbox"
              name="blockingRequested"
              className="mt-0.5 size-5 shrink-0 accent-brand-700"
            />
            <span>
              Quiero que bloqueen mis datos mientras deciden (no se usarán para nada más que conservarlos).
            </span>
          </label>
        )}
        {right === "supresion" && (
          <div>
            <label className="flex items-start gap-3 text-sm text-slate-700">
              <input
                type="checkbox"
                name="erasureUnderstood"
                required
                aria-invalid={error(result, "erasureUnderstood") ? true : undefined}
                className="mt-0.5 size-5 shrink-0 accent-brand-700"
              />
              <span>
                Entiendo que, si se aprueba, mi cuenta se cerrará y no podré volver a ingresar, y que la
                clínica conservará bloqueado lo que la ley le obliga a guardar (como la ficha clínica por 15
                años y los pagos), informándome qué, por qué y hasta cuándo.
              </span>
            </label>
            {error(result, "erasureUnderstood") && (
              <p className="mt-1 text-sm font-medium text-red-700">{error(result, "erasureUnderstood")}</p>
            )}
          </div>
        )}
        <Button type="submit" disabled={busy}>
          {busy ? "Enviando..." : "Enviar solicitud"}
        </Button>
      </Form>
    </section>
  );
}
