/**
 * The clinic's time zone, declared once. A module of its own so that code which only names the zone (the es-CL
 * formatters, shipped to the browser by public pages) does not pull in the zone arithmetic and its library.
 */
export const CLINIC_TIME_ZONE = "America/Santiago";
