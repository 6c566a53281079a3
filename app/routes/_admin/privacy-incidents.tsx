import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/privacy-incidents";
import { ActionMessage, AdminTable, Badge, tdClass, YesNo } from "~/components/admin-ui";
import { Button, buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { emptyIncident, IncidentFields } from "~/features/privacy/components/incident-fields";
import { listIncidents, recordIncident } from "~/features/privacy/incident-service.server";
import type { ActionResult } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Incidentes de seguridad | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

/** The breach register (Ley 21.719, art. 14 sexies; ADR 038): admins only. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const actor = { id: user.id, roles: user.roles, ip: clientIp(args.request) };
  return { incidents: await listIncidents(await getDb(), actor) };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const form = await readForm(args.request);
  const actor = { id: user.id, roles: user.roles, ip: clientIp(args.request) };
  try {
    const id = await recordIncident(await getDb(), actor, form);
    return redirect(`/admin/privacidad/incidentes/${id}?registrado=1`);
  } catch (error) {
    return appErrorResult(error) as ReturnType<typeof data<ActionResult>>;
  }
}

export default function PrivacyIncidents({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h1 className="text-3xl font-bold">Incidentes de seguridad</h1>
      <p className="mt-2 max-w-3xl text-slate-700">
        Registro de vulneraciones de seguridad que afectan datos personales (art. 14 sexies de la Ley N°
        19.628, modificada por la Ley N° 21.719): qué ocurrió, qué datos y personas afecta, las medidas
        adoptadas y cuándo se informó a la Agencia de Protección de Datos Personales y a las personas.
      </p>
      <p className="mt-4">
        <a href="/admin/privacidad/incidentes.csv" className={buttonClass("secondary")} download>
          Descargar registro para la Agencia (CSV)
        </a>
      </p>
      {loaderData.incidents.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600">No hay incidentes registrados.</p>
      ) : (
        <div className="mt-6">
          <AdminTable
            label="Registro de incidentes"
            caption="Incidentes de seguridad, del más reciente al más antiguo"
            columns={[
              "Descubierto",
              "Incidente",
              "Datos de salud",
              "Personas",
              "Agencia",
              "Personas informadas",
              "Estado",
            ]}
            testId="incidents-table"
          >
            {loaderData.incidents.map((incident) => (
              <tr key={incident.id}>
                <td className={`${tdClass} whitespace-nowrap`}>
                  <time dateTime={incident.discoveredIso}>{incident.discovered}</time>
                </td>
                <td className={tdClass}>
                  <Link
                    to={`/admin/privacidad/incidentes/${incident.id}`}
                    className="text-brand-700 underline"
                  >
                    {incident.title}
                  </Link>
                </td>
                <td className={tdClass}>
                  <YesNo value={incident.sensitiveData} />
                </td>
                <td className={tdClass}>{incident.peopleAffected ?? "—"}</td>
                <td className={`${tdClass} whitespace-nowrap`}>{incident.agencyNotified ?? "Pendiente"}</td>
                <td className={`${tdClass} whitespace-nowrap`}>
                  {incident.peopleNotified ?? "Pendiente"}
                  {incident.notices > 0 && (
                    <div className="text-xs text-slate-600">{incident.notices} avisos</div>
                  )}
                </td>
                <td className={tdClass}>
                  <Badge tone={incident.status === "open" ? "info" : "neutral"}>{incident.statusLabel}</Badge>
                </td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}

      <section aria-labelledby="registrar-incidente" className="mt-10 max-w-3xl">
        <h2 id="registrar-incidente" className="text-2xl font-bold">
          Registrar un incidente
        </h2>
        <Form method="post" className="mt-4 space-y-6">
          <ActionMessage result={actionData as ActionResult | undefined} />
          <IncidentFields values={emptyIncident} />
          <Button type="submit" disabled={busy}>
            Registrar incidente
          </Button>
        </Form>
      </section>
    </>
  );
}
