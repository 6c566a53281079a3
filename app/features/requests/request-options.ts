import { clinicDayParts } from "~/config/clinic";

/** Choices of the request forms (client-safe, no zod). */
export const callbackTimes = ["manana", "tarde", "cualquiera"] as const;

export const callbackTimeLabels: Record<(typeof callbackTimes)[number], string> = {
  manana: `Mañana (${clinicDayParts.morning})`,
  tarde: `Tarde (${clinicDayParts.afternoon})`,
  cualquiera: "Cualquier horario",
};
