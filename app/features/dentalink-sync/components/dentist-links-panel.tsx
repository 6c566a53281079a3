import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import type { ActionResult } from "~/lib/base/action-result";
import type { DentistLinkView, SyncDentistOption } from "../sync-dto";
import { DENTIST_LINK_INTENT, NO_DENTALINK_DENTIST } from "../sync-options";

const linkSources: Record<NonNullable<DentistLinkView["source"]>, string> = {
  name: "por nombre",
  admin: "por un administrador",
};

/**
 * Which Dentalink dentist each of ours books into: linked once by name, editable by an admin. A dentist without a
 * link gets no write-through (its bookings appear above with the reason) instead of another dentist's agenda.
 */
export function DentistLinks({
  links,
  dentists,
  canEdit,
}: {
  links: DentistLinkView[];
  dentists: SyncDentistOption[];
  canEdit: boolean;
}) {
  return (
    <section
      aria-labelledby="dentalink-dentist-links"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="dentalink-dentist-links"
    >
      <h3 id="dentalink-dentist-links" className="text-lg font-semibold">
        Dentistas del portal en Dentalink
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        Las citas de Mis Citas se envían a la agenda del dentista vinculado.
        {canEdit ? "" : " Solo un administrador puede cambiar los vínculos."}
      </p>
      <ul className="mt-3 divide-y divide-slate-200">
        {links.map((link) => (
          <DentistLinkRow key={link.dentistId} link={link} dentists={dentists} canEdit={canEdit} />
        ))}
      </ul>
    </section>
  );
}

function DentistLinkRow({
  link,
  dentists,
  canEdit,
}: {
  link: DentistLinkView;
  dentists: SyncDentistOption[];
  canEdit: boolean;
}) {
  const fetcher = useFetcher<ActionResult<{ dentistId: string }>>();
  const answer = fetcher.data;
  const selectId = `dentalink-link-${link.dentistId}`;
  const state =
    link.problem === "unlinked"
      ? "Sin vincular: sus citas no se envían a Dentalink."
      : link.problem === "missing"
        ? `Vinculado a ${link.dentalinkDentistId}, que Dentalink no tiene activo.`
        : `${link.dentalinkName ?? link.dentalinkDentistId} (${link.dentalinkDentistId})${
            link.source ? `, vinculado ${linkSources[link.source]}` : ""
          }.`;
  return (
    <li className="flex flex-wrap items-end justify-between gap-3 py-3" data-testid="dentist-link">
      <div>
        <p className="font-medium" data-testid="dentist-link-name">
          {link.name}
        </p>
        <p
          className={cn("text-sm", link.problem ? "text-red-800" : "text-slate-700")}
          data-testid="dentist-link-state"
        >
          {state}
        </p>
      </div>
      {canEdit && (
        <fetcher.Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value={DENTIST_LINK_INTENT} />
          <input type="hidden" name="dentistId" value={link.dentistId} />
          <div className="flex flex-col gap-1">
            <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
              Dentista de Dentalink para {link.name}
            </label>
            <select
              id={selectId}
              name="dentalinkDentistId"
              defaultValue={link.dentalinkDentistId ?? NO_DENTALINK_DENTIST}
              className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
            >
              <option value={NO_DENTALINK_DENTIST}>Sin vincular</option>
              {dentists.map((dentist) => (
                <option key={dentist.id} value={dentist.id}>
                  {dentist.name} ({dentist.id})
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
            Guardar<span className="sr-only"> el vínculo de {link.name}</span>
          </Button>
          {answer && (
            <span
              role={answer.ok ? "status" : "alert"}
              className={answer.ok ? "text-emerald-900" : "text-red-800"}
            >
              {answer.message}
            </span>
          )}
        </fetcher.Form>
      )}
    </li>
  );
}
