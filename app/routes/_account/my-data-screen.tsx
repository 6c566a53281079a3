import type { MyDataActionData } from "~/features/consent/my-data-schema";
import { MyDataPage } from "~/features/consent/components/my-data-page";
import { ExportPanel } from "~/features/privacy/components/export-panel";
import { RightsRequestPanel } from "~/features/privacy/components/rights-request-panel";
import type { MyDataPath } from "~/features/privacy/data-export-paths";
import type { RightsRequestReceipt } from "~/features/privacy/request-panel.server";
import type { ActionResult } from "~/lib/base/action-result";
import type { loadMyData } from "./my-data-sections.server";

/**
 * Mis Datos as both routes render it (/paciente/datos, /cuenta/datos): the consents and profiling sections, with the
 * export and the rights requests composed in. A rights request's result comes back under `rights`.
 */
export function MyDataScreen({
  loaderData,
  actionData,
  returnTo,
}: {
  loaderData: Awaited<ReturnType<typeof loadMyData>>;
  actionData: { rights: ActionResult<RightsRequestReceipt> } | MyDataActionData | undefined;
  returnTo: MyDataPath;
}) {
  const rights = actionData && "rights" in actionData ? actionData.rights : undefined;
  const result = actionData && !("rights" in actionData) ? actionData : undefined;
  return (
    <MyDataPage
      page={loaderData.page}
      result={result}
      exportPanel={<ExportPanel data={loaderData.exports} returnTo={returnTo} />}
      rightsRequestPanel={<RightsRequestPanel requests={loaderData.rights.requests} result={rights} />}
    />
  );
}
