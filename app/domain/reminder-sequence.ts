/**
 * The reminder sequence (issue 23): the steps the clinic can switch on or off, in the order they come. Pure.
 */

/** 48 hours before (with the forms still to fill), 24 hours before (Confirmar/Cancelar), 2 hours before ("te esperamos"). */
export const reminderSteps = ["48h", "24h", "2h"] as const;
export type ReminderStep = (typeof reminderSteps)[number];
