import { z } from "zod";
import { MY_DATA_PATHS } from "./data-export-paths";

/** The 'Descargar mis datos' form: only where to come back to (the person is the session's, never the form's). */
export const requestExportSchema = z.object({
  returnTo: z.enum(MY_DATA_PATHS).optional(),
});
