import type { Route } from "./+types/callback-request";
import { EmailField, NameField, PhoneField, SelectField, TextareaField } from "~/components/form-fields";
import { RequestFormPage } from "~/features/requests/components/request-form-page";
import { requestFormAction } from "~/features/requests/request-action.server";
import { callbackTimeLabels, callbackTimes } from "~/features/requests/request-options";
import { callbackRequestSchema } from "~/features/requests/request-schemas";
import { recordCallbackRequest } from "~/features/requests/request-service.server";
import { useAppData } from "~/lib/app-data";
import { clinicFromMatches, pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Te llamamos | Río Clínica",
    description:
      "Déjanos tu teléfono y te llamamos para resolver tus dudas o atender otros derechos sobre tus datos.",
    path: "/devolver-llamada",
    clinic: clinicFromMatches(matches),
  });

const loadCallbackSchema = () =>
  import("~/features/requests/request-schemas").then((module) => module.callbackRequestSchema);

export async function action({ request }: Route.ActionArgs) {
  return requestFormAction(request, callbackRequestSchema, recordCallbackRequest);
}

export default function CallbackRequestPage({ actionData }: Route.ComponentProps) {
  const { clinic } = useAppData();
  return (
    <RequestFormPage
      title="Te llamamos"
      loadSchema={loadCallbackSchema}
      result={actionData}
      successTitle="Recibimos tu solicitud de llamada"
      successBody={`Te llamaremos en el horario que elegiste, ${clinic.hoursInSentence}.`}
      submitLabel="Solicitar llamada"
      intro={
        <p>
          Déjanos tu teléfono y el motivo: consultas sobre tratamientos, tus datos personales u otros
          derechos. Un asesor te llamará en horario de atención.
        </p>
      }
    >
      {(error) => (
        <>
          <NameField label="Nombre completo" error={error("name")} required />
          <PhoneField label="Teléfono" error={error("phone")} name="phone" required />
          <EmailField label="E-mail (opcional)" error={error("email")} />
          <SelectField
            label="¿Cuándo te llamamos?"
            error={error("preferredTime")}
            name="preferredTime"
            required
            defaultValue="cualquiera"
          >
            {callbackTimes.map((value) => (
              <option key={value} value={value}>
                {callbackTimeLabels[value]}
              </option>
            ))}
          </SelectField>
          <TextareaField
            label="Motivo (opcional)"
            error={error("reason")}
            name="reason"
            rows={4}
            maxLength={1000}
          />
        </>
      )}
    </RequestFormPage>
  );
}
