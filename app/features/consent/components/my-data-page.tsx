import { Form, Link } from "react-router";
import { FormAlert } from "~/components/form-fields";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/cn";
import type { ConsentPurposeDto, MyDataPageDto } from "../my-data-dto";
import type { MyDataActionData } from "../my-data-schema";

const card = "rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200";

/**
 * Mis Datos (ADR 037): the person's consents with a switch each, the objection to profiling, and the places where
 * the export and the rights requests are composed. Every switch is a plain form post (works without JavaScript), and
 * withdrawing takes the same one click as giving.
 */
export function MyDataPage({
  page,
  result,
  exportPanel,
  rightsRequestPanel,
}: {
  page: MyDataPageDto;
  result: MyDataActionData | undefined;
  /** Composition point: 'Descargar mis datos' (features/privacy), wired by the route. */
  exportPanel?: React.ReactNode;
  /** Composition point: the rights requests (features/privacy), wired by the route. */
  rightsRequestPanel?: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold">Mis Datos</h1>
      <p className="mt-2 text-slate-700">
        Revisa y decide cómo usa la clínica tus datos personales (Ley 21.719). Puedes retirar cada
        consentimiento tan fácilmente como lo diste.
      </p>
      <div className="mt-4 min-h-6" aria-live="polite">
        {result?.ok ? (
          <p role="status" className="rounded-lg bg-brand-50 p-3 text-sm font-medium text-brand-900">
            {result.data.done}
          </p>
        ) : (
          <FormAlert message={result?.message} />
        )}
      </div>

      <section aria-labelledby="consents-title" className={cn(card, "mt-6")}>
        <h2 id="consents-title" className="text-xl font-semibold">
          Mis consentimientos
        </h2>
        <ul className="mt-4 space-y-6">
          {page.consents.purposes.map((purpose) => (
            <li key={purpose.purpose}>
              <ConsentPurpose path={page.path} purpose={purpose} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="profiling-title" className={cn(card, "mt-6")}>
        <h2 id="profiling-title" className="text-xl font-semibold">
          Oposición al perfilamiento
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          Cuando nos dejas una consulta, un sistema automático le asigna un puntaje para priorizar la
          respuesta. Puedes oponerte: tus solicitudes quedarán sin puntaje, nadie las priorizará
          automáticamente y no recibirás mensajes de marketing.
        </p>
        <Form method="post" action={page.path} className="mt-4 flex items-center gap-3">
          <input
            type="hidden"
            name="intent"
            value={page.profiling.objected ? "retirar-oposicion" : "oponerse"}
          />
          <Switch on={page.profiling.objected} label="Me opongo al perfilamiento" />
          <span className="text-sm font-medium">Me opongo al perfilamiento</span>
          <Badge tone={page.profiling.objected ? "good" : "neutral"}>
            {page.profiling.objected ? "Activa" : "No activa"}
          </Badge>
        </Form>
      </section>

      <section aria-labelledby="profile-note-title" className={cn(card, "mt-6")}>
        <h2 id="profile-note-title" className="text-xl font-semibold">
          Mis datos de perfil
        </h2>
        {page.profilePath ? (
          <p className="mt-2 text-sm text-slate-700">
            Tu nombre, teléfono, dirección y contacto de emergencia los puedes corregir tú mismo en{" "}
            <Link to={page.profilePath} className="font-medium text-brand-700 underline">
              Mi Perfil
            </Link>
            .
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-700">
            Los datos de tu cuenta del equipo los mantiene un administrador de la clínica. Si alguno está mal,
            pide su corrección con una solicitud de rectificación aquí abajo.
          </p>
        )}
      </section>

      {/* The export and the rights requests (features/privacy) are composed by the route: each panel has its heading. */}
      {exportPanel ? <div className="mt-6">{exportPanel}</div> : null}
      {rightsRequestPanel ? <div className={cn(card, "mt-6")}>{rightsRequestPanel}</div> : null}
    </div>
  );
}

function ConsentPurpose({ path, purpose }: { path: string; purpose: ConsentPurposeDto }) {
  const on = purpose.state === "vigente";
  const titleId = `consent-${purpose.purpose}`;
  return (
    <article aria-labelledby={titleId} data-testid={`consent-${purpose.purpose}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={titleId} className="font-semibold">
            {purpose.label}
          </h3>
          <p className="mt-1 text-sm text-slate-700">{purpose.description}</p>
        </div>
        <Badge tone={on ? "good" : "neutral"} data-testid="consent-state">
          {purpose.stateLabel}
        </Badge>
      </div>
      {on || !purpose.giveBlockedReason ? (
        <Form method="post" action={path} className="mt-3 flex items-center gap-3">
          {on && purpose.withdrawId ? (
            <>
              <input type="hidden" name="intent" value="retirar" />
              <input type="hidden" name="consentId" value={purpose.withdrawId} />
            </>
          ) : (
            <>
              <input type="hidden" name="intent" value="otorgar" />
              <input type="hidden" name="purpose" value={purpose.purpose} />
            </>
          )}
          <Switch on={on} label={purpose.label} />
          <span className="text-sm text-slate-700">
            {on ? "Activado: pulsa para retirarlo" : "Desactivado: pulsa para darlo"}
          </span>
        </Form>
      ) : (
        <p className="mt-3 text-sm text-slate-700">{purpose.giveBlockedReason}</p>
      )}
      {!on && (
        <p className="mt-2 text-xs text-slate-600">
          Al activarlo aceptas este texto (versión {purpose.currentVersion}): «{purpose.currentText}»
        </p>
      )}
      {purpose.entries.length > 0 && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-brand-700">
            Ver historial y textos aceptados
          </summary>
          <ul className="mt-2 space-y-3">
            {purpose.entries.map((entry) => (
              <li key={entry.id} className="rounded-lg bg-slate-50 p-3">
                <p>
                  <span className="font-medium">{entry.stateLabel}</span> · versión {entry.version} · otorgado
                  el {entry.givenAtLabel} ({entry.channelLabel})
                  {entry.withdrawnAtLabel &&
                    ` · retirado el ${entry.withdrawnAtLabel}${entry.withdrawnChannelLabel ? ` (${entry.withdrawnChannelLabel})` : ""}`}
                </p>
                <blockquote className="mt-1 border-l-2 border-slate-300 pl-3 text-slate-700">
                  {entry.text}
                </blockquote>
              </li>
            ))}
          </ul>
        </details>
      )}
    </article>
  );
}

/** A submit button drawn as a switch: its state is aria-checked, its name the purpose; pressing it posts the form. */
function Switch({ on, label }: { on: boolean; label: string }) {
  return (
    <button
      type="submit"
      role="switch"
      aria-checked={on}
      aria-label={label}
      className={cn(
        "relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
        on ? "bg-brand-700" : "bg-slate-400",
      )}
    >
      <span
        aria-hidden
        className={cn(
          "inline-block size-5 rounded-full bg-white shadow transition-transform",
          on ? "translate-x-6" : "translate-x-1",
        )}
      />
    </button>
  );
}
