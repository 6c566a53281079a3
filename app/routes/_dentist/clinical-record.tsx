import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/clinical-record";
import { FormAlert, TextareaField } from "~/components/form-fields";
import { RutField } from "~/components/rut-field";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { CLINICAL_READER_ROLES } from "~/domain/roles";
import { PatientSummary, RecordTabs } from "~/features/clinical-record/components/record-dashboard";
import { staffLookupSchema, type ClinicalRecordDto } from "~/features/clinical-record/record-schema";
import { staffRecord } from "~/features/clinical-record/record-reading.server";
import { actionSuccess, fieldError, formLevelMessage, type ActionResult } from "~/lib/base/action-result";
import { clientIp, rateLimitIp } from "~/lib/client-ip.server";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { isAppError } from "~/lib/base/errors";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Ficha clínica | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, CLINICAL_READER_ROLES);
  return null;
}

/** A lookup by RUT with a required reason; every read is written to the access register with it. */
export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, CLINICAL_READER_ROLES);
  const parsed = staffLookupSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const record = await staffRecord(await getDb(), user, parsed.data, {
      ip: clientIp(args.request),
      rateIp: rateLimitIp(args.request),
    });
    return data<ActionResult<ClinicalRecordDto>>(actionSuccess(record));
  } catch (error) {
    if (isAppError(error)) return appErrorResult(error);
    throw error;
  }
}

export default function StaffClinicalRecord({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const result = actionData as ActionResult<ClinicalRecordDto> | undefined;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">Ficha clínica</h1>
      <p className="mt-2 text-slate-700">
        Abre la ficha de un paciente por su RUT. El motivo queda registrado junto a cada lectura, y el
        paciente ve quién abrió su ficha y cuándo.
      </p>
      <Form
        method="post"
        noValidate
        className="mt-6 grid gap-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2"
      >
        <FormAlert message={formLevelMessage(result)} className="sm:col-span-2" />
        <RutField label="RUT del paciente" error={fieldError(result, "rut")} required />
        <TextareaField
          label="Motivo del acceso"
          name="reason"
          rows={2}
          maxLength={500}
          hint="Al menos 10 caracteres, por ejemplo: control de tratamiento de ortodoncia."
          error={fieldError(result, "reason")}
          required
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            {busy ? "Consultando…" : "Abrir ficha"}
          </Button>
        </div>
      </Form>
      {result?.ok && (
        <section aria-label="Ficha del paciente" className="mt-8">
          <h2 className="text-2xl font-bold">Portal Paciente</h2>
          <PatientSummary record={result.data} />
          <RecordTabs record={result.data} />
        </section>
      )}
    </div>
  );
}
