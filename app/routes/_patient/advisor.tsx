import { RotateCcw } from "lucide-react";
import { data, Link, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/advisor";
import { getDb } from "~/db/client.server";
import { ADVISOR_FAILURE_MESSAGE } from "~/domain/advisor-replies";
import { formatChileanPhone } from "~/domain/format";
import { AdvisorNotice, AdvisorWorkspace } from "~/features/advisor/components/advisor-chat";
import { advisorMessageSchema, type AdvisorActionData } from "~/features/advisor/advisor-schema";
import { loadConversation, sendAdvisorMessage } from "~/features/advisor/advisor-service.server";
import { useAppData } from "~/lib/app-data";
import { clinicFacts } from "~/lib/base/env.server";
import { actionFailure, actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { isAppError } from "~/lib/base/errors";
import { requireUser } from "~/lib/guards.server";
import { logger } from "~/lib/base/logger.server";
import { readForm } from "~/lib/request.server";

const PATH = "/paciente/asesor";

export const meta: Route.MetaFunction = () => [{ title: "Asesor Virtual | Río Clínica" }];

/** The caller's own conversation (newest 100, oldest first); a first visit stores the welcome message. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const messages = await loadConversation(await getDb(), user);
  return { messages };
}

/** One message in, the stored message and the advisor's reply out (one transaction). */
export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const parsed = advisorMessageSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const messages = await sendAdvisorMessage(await getDb(), user, parsed.data.content, clinicFacts());
    return data<AdvisorActionData>(actionSuccess({ messages }));
  } catch (error) {
    if (isAppError(error)) return appErrorResult(error);
    logger.error({ err: error, userId: user.id }, "advisor message failed");
    return data<AdvisorActionData>(actionFailure("INTERNAL", ADVISOR_FAILURE_MESSAGE), { status: 500 });
  }
}

/**
 * A lost connection or an unexpected server error becomes the clinic's failure text as a chat message
 * instead of replacing the page with the error boundary.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs): Promise<AdvisorActionData> {
  try {
    return await serverAction();
  } catch {
    return actionFailure("INTERNAL", ADVISOR_FAILURE_MESSAGE);
  }
}

/** The action's answer already carries the new messages; reloading the conversation would only repeat them. */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction === PATH) return false;
  return defaultShouldRevalidate;
}

export default function AdvisorPage({ loaderData }: Route.ComponentProps) {
  const { clinic } = useAppData();
  const phone = { e164: clinic.phone, display: formatChileanPhone(clinic.phone) };
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Asesor Virtual</h1>
      <p className="mt-2 text-slate-600">Asistente inteligente disponible 24/7</p>
      <div className="mt-6">
        <AdvisorNotice phone={phone} />
      </div>
      <div className="mt-6">
        <AdvisorWorkspace
          initialMessages={loaderData.messages}
          phone={phone}
          hours={clinic.hoursCompact}
          action={PATH}
        />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Asesor Virtual</h1>
      <div role="alert" className="mt-6 rounded-xl bg-red-50 p-5 text-red-900 ring-1 ring-red-200">
        <p>{ADVISOR_FAILURE_MESSAGE}</p>
        <Link
          to={PATH}
          reloadDocument
          className="mt-4 inline-flex items-center gap-2 rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-red-100"
        >
          <RotateCcw aria-hidden className="size-4" />
          Intentar nuevamente
        </Link>
      </div>
    </div>
  );
}
