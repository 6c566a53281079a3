import type { Database } from "~/db/client.server";
import { formatClinicDateTime } from "~/domain/format";
import { formatRut } from "~/domain/rut";
import { AppError } from "~/lib/base/errors";
import type { RecordReader } from "./record-actor.server";
import { accessesOfPatient, findBinding, latestAccesses, type AccessRow } from "./record-repository.server";
import type { RecordAccessItem } from "./record-schema";

/**
 * The access register as people see it: the patient's list of who opened their record, and the whole register for
 * /admin/auditoria.
 */

const roleLabels: Record<string, string> = {
  paciente: "Paciente",
  dentista: "Dentista",
  admin: "Administración",
  super_admin: "Administración",
};

/** What the patient's access list says each kind of row did. */
const openingLabels = {
  vinculacion: "Vinculó tu RUT a su cuenta",
  paciente: "Abrió tu ficha",
  archivo: "Abrió un archivo",
} as const;

const openingResources = Object.keys(openingLabels) as Array<keyof typeof openingLabels>;

function accessItem(row: AccessRow): RecordAccessItem {
  return {
    id: row.id,
    who: row.actorName,
    role: roleLabels[row.actorRole] ?? row.actorRole,
    what: openingLabels[row.resource as keyof typeof openingLabels] ?? row.resource,
    when: formatClinicDateTime(row.createdAt),
    reason: row.reason,
  };
}

/**
 * Who else bound or opened this account's record, and when (names, never addresses): every binding to an account,
 * every opening and every file read by staff or by another patient account (ADR 029). Another account's
 * code request is not listed: it opened nothing (the code went to the patient).
 */
export async function recordOpenings(db: Database, reader: RecordReader): Promise<RecordAccessItem[]> {
  const binding = await findBinding(db, reader.id);
  if (!binding) return [];
  const rows = await accessesOfPatient(db, {
    rut: binding.rut,
    excludeActorId: reader.id,
    resources: openingResources,
    outcome: "ok",
    limit: 50,
  });
  return rows.map(accessItem);
}

export interface RegisterEntryDto {
  id: string;
  when: string;
  who: string;
  role: string;
  rut: string;
  resource: string;
  resourceId: string | null;
  reason: string | null;
  outcome: string;
  ip: string;
}

const resourceLabels: Record<string, string> = {
  codigo: "Búsqueda para enviar un código",
  vinculacion: "Vinculación de una cuenta",
  paciente: "Búsqueda del paciente",
  citas: "Citas",
  pagos: "Pagos",
  tratamientos: "Tratamientos",
  documentos: "Documentos",
  radiografias: "Radiografías",
  archivo: "Archivo",
};

const outcomeLabels: Record<string, string> = {
  ok: "Leído",
  not_found: "No encontrado",
  error: "Error de Dentalink",
};

export const REGISTER_PAGE_SIZE = 100;

/** The register's newest rows, of one patient (RUT) when given; admins only (the route checks the role too). */
export async function accessRegister(
  db: Database,
  reader: RecordReader,
  options: { rut?: string },
): Promise<RegisterEntryDto[]> {
  if (!reader.roles.some((role) => role === "admin" || role === "super_admin")) {
    throw new AppError("FORBIDDEN", "No tienes permiso para ver el registro de accesos.");
  }
  const rows = await latestAccesses(db, { rut: options.rut, limit: REGISTER_PAGE_SIZE });
  return rows.map((row) => ({
    id: row.id,
    when: formatClinicDateTime(row.createdAt),
    who: row.actorName,
    role: roleLabels[row.actorRole] ?? row.actorRole,
    rut: formatRut(row.rut),
    resource: resourceLabels[row.resource] ?? row.resource,
    resourceId: row.resourceId,
    reason: row.reason,
    outcome: outcomeLabels[row.outcome] ?? row.outcome,
    ip: row.ip,
  }));
}
