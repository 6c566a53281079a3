import type { Route } from "./+types/my-data-downloads";
import { getDb } from "~/db/client.server";
import { ExportPanel } from "~/features/privacy/components/export-panel";
import { loadExportPanel } from "~/features/privacy/data-export-service.server";
import { requireUser } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Descargar mis datos | Río Clínica" },
  { name: "robots", content: "noindex" },
];

/**
 * /mis-datos — the 'Descargar mis datos' panel on a page of its own, for any account, until the Mis Datos pages
 * (/paciente/datos, /cuenta/datos) carry it.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return loadExportPanel(await getDb(), user.id);
}

export default function MyDataDownloads({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold">Mis datos</h1>
      <div className="mt-8">
        <ExportPanel data={loaderData} returnTo="/mis-datos" />
      </div>
    </div>
  );
}
