import { data } from "react-router";
import type { Database } from "~/db/client.server";
import type { MyDataPageDto } from "~/features/consent/my-data-dto";
import { myDataActionSchema, type MyDataActionData } from "~/features/consent/my-data-schema";
import {
  changeMyData,
  consentSection,
  myDataSubject,
  profilingSection,
} from "~/features/consent/my-data-service.server";
import type { ExportPanelData } from "~/features/privacy/data-export-dto";
import { loadExportPanel } from "~/features/privacy/data-export-service.server";
import {
  loadRightsRequestPanel,
  RIGHTS_REQUEST_INTENT,
  rightsRequestPanelAction,
  type RightsRequestPanelData,
} from "~/features/privacy/request-panel.server";
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";

/**
 * Mis Datos' loader and action, shared by /paciente/datos and /cuenta/datos after each route's own guard. The loader
 * composes the page's sections, one service call each (the lead adds the export and the rights requests here).
 */
export async function loadMyData(
  db: Database,
  userId: string,
  path: string,
  /** Where the person edits their profile: Mi Perfil for a patient, none for a staff-only account. */
  profilePath: string | null,
): Promise<{ page: MyDataPageDto; rights: RightsRequestPanelData; exports: ExportPanelData }> {
  const subject = await myDataSubject(db, userId);
  const consents = await consentSection(db, subject);
  const profiling = await profilingSection(db, subject);
  const rights = await loadRightsRequestPanel(db, { id: userId });
  const exports = await loadExportPanel(db, userId);
  return { page: { path, profilePath, consents, profiling }, rights, exports };
}

/** The page's forms: a rights request (its own intent) or a consent/profiling switch. */
export async function myDataAction(db: Database, userId: string, form: Record<string, string>) {
  if (form.intent === RIGHTS_REQUEST_INTENT) {
    return data({ rights: await rightsRequestPanelAction(db, { id: userId }, form) });
  }
  const parsed = myDataActionSchema.safeParse(form);
  if (!parsed.success) return validationResult(parsed.error, "La solicitud no es válida.");
  try {
    const done = await changeMyData(db, userId, parsed.data);
    return data<MyDataActionData>(actionSuccess({ done }));
  } catch (error) {
    return appErrorResult(error);
  }
}
