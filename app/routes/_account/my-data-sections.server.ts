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
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";

/**
 * Mis Datos' loader and action, shared by /paciente/datos and /cuenta/datos after each route's own guard. The loader
 * composes the page's sections, one service call each (the lead adds the export and the rights requests here).
 */
export async function loadMyData(db: Database, userId: string, path: string): Promise<MyDataPageDto> {
  const subject = await myDataSubject(db, userId);
  const consents = await consentSection(db, subject);
  const profiling = await profilingSection(db, subject);
  // 'Descargar mis datos' is composed by the two routes themselves (loadExportPanel + ExportPanelContent).
  // Composition point: `requests: await rightsRequestSection(db, userId)` (helper C).
  return { path, profilePath: "/paciente/perfil", consents, profiling };
}

export async function myDataAction(db: Database, userId: string, form: Record<string, string>) {
  const parsed = myDataActionSchema.safeParse(form);
  if (!parsed.success) return validationResult(parsed.error, "La solicitud no es válida.");
  try {
    const done = await changeMyData(db, userId, parsed.data);
    return data<MyDataActionData>(actionSuccess({ done }));
  } catch (error) {
    return appErrorResult(error);
  }
}
