import { CLINICAL_READER_ROLES } from "~/domain/roles";
import { AppError } from "~/lib/base/errors";
import type { NewAccessRow } from "./record-repository.server";

/** Who reads a clinical record, as the access register records them, and what each reader must be. */
export interface RecordReader {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  roles: readonly string[];
}

export interface ReadContext {
  ip: string;
  /** The client's rate-limit address (IPv6 as its /64). */
  rateIp: string;
  now?: Date;
}

export const UNVERIFIED_MESSAGE =
  "Confirma tu correo electrónico antes de abrir tu ficha clínica. Te enviamos un enlace al registrarte; puedes pedir otro desde tu panel.";

export function fullName(reader: Pick<RecordReader, "firstName" | "lastName">): string {
  return `${reader.firstName} ${reader.lastName}`.trim();
}

export function patientEntry(
  reader: RecordReader,
  context: ReadContext,
  entry: Pick<NewAccessRow, "rut" | "dentalinkPatientId" | "resource" | "resourceId" | "outcome">,
): NewAccessRow {
  return {
    actorId: reader.id,
    actorName: fullName(reader) || reader.email,
    actorRole: "paciente",
    reason: null,
    ip: context.ip,
    ...entry,
  };
}

export function assertVerified(reader: RecordReader) {
  if (!reader.emailVerified) throw new AppError("FORBIDDEN", UNVERIFIED_MESSAGE);
}

export function staffRole(reader: RecordReader): string {
  const role = CLINICAL_READER_ROLES.find((name) => reader.roles.includes(name));
  if (!role) throw new AppError("FORBIDDEN", "No tienes permiso para ver fichas clínicas.");
  return role === "super_admin" ? "admin" : role;
}

/** A staff member's register row: the role they read with and the reason they gave, on every read. */
export function staffEntry(
  reader: RecordReader,
  role: string,
  context: ReadContext,
  entry: Pick<NewAccessRow, "rut" | "dentalinkPatientId" | "reason" | "resource" | "resourceId" | "outcome">,
): NewAccessRow {
  return {
    actorId: reader.id,
    actorName: fullName(reader) || reader.email,
    actorRole: role,
    ip: context.ip,
    ...entry,
  };
}
