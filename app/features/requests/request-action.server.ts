import { data } from "react-router";
import type { z } from "zod";
import { getDb, type Database } from "~/db/client.server";
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { readForm } from "~/lib/request.server";
import type { RequestReceipt } from "./request-schemas";
import { publicWriter, type PublicWriter } from "~/lib/public-write-limit.server";

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
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const { id } = await record(await getDb(), parsed.data, publicWriter(request));
    return data(actionSuccess<RequestReceipt>({ reference: id.slice(0, 8).toUpperCase() }));
  } catch (error) {
    return appErrorResult(error);
  }
}
