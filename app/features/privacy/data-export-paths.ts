/** The export's resource routes (client-safe: the panel links to them, the service builds its DTOs with them). */

export const DATA_EXPORTS_PATH = "/mis-datos/exportaciones";

export function dataExportStatusPath(id: string): string {
  return `${DATA_EXPORTS_PATH}/${encodeURIComponent(id)}`;
}

export function dataExportDownloadPath(id: string): string {
  return `${DATA_EXPORTS_PATH}/${encodeURIComponent(id)}/descarga`;
}

/** The Mis Datos pages a form post may return to (no other target: an open redirect is refused). */
export const MY_DATA_PATHS = ["/paciente/datos", "/cuenta/datos"] as const;
export type MyDataPath = (typeof MY_DATA_PATHS)[number];

export function myDataPathFor(roles: readonly string[]): MyDataPath {
  return roles.includes("paciente") ? "/paciente/datos" : "/cuenta/datos";
}
