import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/data-rights-confirm";
import { FormAlert } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { formatDate } from "~/domain/format";
import { PRIVACY_VERIFICATION_MESSAGES } from "~/domain/privacy-verification";
import { RequestConfirmed } from "~/features/privacy/components/request-confirmed";
import { confirmByLink, linkIsUsable } from "~/features/privacy/request-service.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { rateLimitIp } from "~/lib/client-ip.server";

export const meta: Route.MetaFunction = () => [
  { title: "Confirma tu solicitud sobre tus datos | Río Clínica" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

/**
 * The e-mailed single-use link of /eliminar-datos (ADR 037): the unguessable token is the credential. Opening it
 * only shows a button (mail scanners open links); the POST uses it once and starts the request's legal clock.
 */
export async function loader({ params }: Route.LoaderArgs) {
  return { usable: await linkIsUsable(await getDb(), params.token) };
}

interface Confirmed {
  reference: string;
  dueDateLabel: string;
}

export async function action({ request, params }: Route.ActionArgs) {
  try {
    const confirmed = await confirmByLink(await getDb(), params.token, rateLimitIp(request));
    return data(
      actionSuccess<Confirmed>({
        reference: confirmed.reference,
        dueDateLabel: formatDate(confirmed.dueDate),
      }),
    );
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function DataRightsConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult<Confirmed> | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-3xl font-extrabold">Confirma tu solicitud sobre tus datos</h1>
      {result?.ok ? (
        <RequestConfirmed reference={result.data.reference} dueDateLabel={result.data.dueDateLabel} />
      ) : loaderData.usable && !result ? (
        <Form
          method="post"
          className="mt-8 space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
        >
          <p className="text-slate-700">
            Al confirmar, nos aseguras que este e-mail es tuyo y empezamos a tramitar tu solicitud. Si no la
            hiciste tú, cierra esta página: no haremos nada.
          </p>
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? "Confirmando..." : "Confirmar mi solicitud"}
          </Button>
        </Form>
      ) : (
        <div className="mt-8 space-y-4">
          <FormAlert
            message={result && !result.ok ? result.message : PRIVACY_VERIFICATION_MESSAGES.linkInvalid}
          />
          <Link to="/eliminar-datos" className="font-medium text-brand-700 underline">
            Enviar una nueva solicitud
          </Link>
        </div>
      )}
    </div>
  );
}
