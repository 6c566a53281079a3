import { data } from "react-router";
import type { z } from "zod";
import { getDb, type Database } from "~/db/client.server";
import { fieldErrors } from "~/lib/form-errors";
import { publicWriter, publicWriteRefusedResponse, type PublicWriter } from "~/lib/public-write-limit.server";
import { readForm } from "~/lib/request.server";
import type { RequestActionResult } from "./components/request-form-page";

/**
 * The action of a public request form (/devolver-llamada, /eliminar-datos): validate, store through `record`
 * (charged to the sender's hourly budget), answer with the reference or the Spanish errors.
 */
export async function requestFormAction<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  record: (db: Database, form: z.output<Schema>, writer: PublicWriter) => Promise<{ id: string }>,
) {
  const parsed = schema.safeParse(await readForm(request));
  if (!parsed.success) {
    return data<RequestActionResult>({ ok: false, errors: fieldErrors(parsed.error) }, { status: 400 });
  }
  try {
    const { id } = await record(await getDb(), parsed.data, publicWriter(request));
    return data<RequestActionResult>({ ok: true, reference: id.slice(0, 8).toUpperCase() });
  } catch (error) {
    return publicWriteRefusedResponse(error);
  }
}
