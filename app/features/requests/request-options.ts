import { clinicDayParts } from "~/config/clinic";

/** Choices of the request forms (client-safe, no zod). */
export const dataRightsTypes = [
  "acceso",
  "rectificacion",
  "eliminacion",
  "portabilidad",
  "oposicion",
] as const;

export const dataRightsLabels: Record<(typeof dataRightsTypes)[number], string> = {
  acceso: "Acceso: saber qué datos tienen sobre mí",
  rectificacion: "Rectificación: corregir datos inexactos",
  eliminacion: "Eliminación: borrar mis datos",
  portabilidad: "Portabilidad: recibir mis datos en un formato reutilizable",
  oposicion: "Oposición: dejar de usar mis datos para un fin",
};

export const callbackTimes = ["manana", "tarde", "cualquiera"] as const;

export const callbackTimeLabels: Record<(typeof callbackTimes)[number], string> = {
  manana: `Mañana (${clinicDayParts.morning})`,
  tarde: `Tarde (${clinicDayParts.afternoon})`,
  cualquiera: "Cualquier horario",
};
