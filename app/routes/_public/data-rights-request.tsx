import type { Route } from "./+types/data-rights-request";
import { EmailField, NameField, PhoneField, SelectField, TextareaField } from "~/components/form-fields";
import { RutField } from "~/components/rut-field";
import { RequestFormPage } from "~/features/requests/components/request-form-page";
import { requestFormAction } from "~/features/requests/request-action.server";
import { dataRightsLabels, dataRightsTypes } from "~/features/requests/request-options";
import { dataRightsRequestSchema } from "~/features/requests/request-schemas";
import { recordDataRightsRequest } from "~/features/requests/request-service.server";
import { clinicFromMatches, pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Solicitud de eliminación y derechos sobre tus datos | Río Clínica",
    description: "Ejerce tus derechos de acceso, rectificación, eliminación, portabilidad u oposición.",
    path: "/eliminar-datos",
    clinic: clinicFromMatches(matches),
  });

const loadDataRightsSchema = () =>
  import("~/features/requests/request-schemas").then((module) => module.dataRightsRequestSchema);

export async function action({ request }: Route.ActionArgs) {
  return requestFormAction(request, dataRightsRequestSchema, recordDataRightsRequest);
}

export default function DataRightsRequestPage({ actionData }: Route.ComponentProps) {
  return (
    <RequestFormPage
      title="Solicitud sobre tus datos personales"
      loadSchema={loadDataRightsSchema}
      result={actionData}
      successTitle="Recibimos tu solicitud"
      successBody="Te responderemos por e-mail dentro del plazo legal. Si necesitamos verificar tu identidad, te contactaremos antes de actuar sobre tus datos."
      submitLabel="Enviar solicitud"
      intro={
        <>
          <p>
            Puedes pedir acceso, rectificación, eliminación, portabilidad u oposición al uso de tus datos. Ten
            en cuenta que la ficha clínica debe conservarse al menos 15 años por ley; en ese caso te
            explicaremos qué datos podemos eliminar y cuáles no.
          </p>
        </>
      }
    >
      {(error) => (
        <>
          <SelectField
            label="¿Qué derecho quieres ejercer?"
            error={error("requestType")}
            name="requestType"
            required
            defaultValue="eliminacion"
          >
            {dataRightsTypes.map((value) => (
              <option key={value} value={value}>
                {dataRightsLabels[value]}
              </option>
            ))}
          </SelectField>
          <NameField label="Nombre completo" error={error("name")} required />
          <EmailField label="E-mail" error={error("email")} hint="Te responderemos a este e-mail." required />
          <PhoneField label="Teléfono (opcional)" error={error("phone")} name="phone" />
          <RutField
            label="RUT (opcional)"
            error={error("rut")}
            hint="Nos ayuda a encontrar tu ficha si eres paciente."
          />
          <TextareaField
            label="Detalle de tu solicitud (opcional)"
            error={error("details")}
            name="details"
            rows={4}
            maxLength={2000}
          />
        </>
      )}
    </RequestFormPage>
  );
}
