import { Info, RotateCcw } from "lucide-react";
import { useEffect } from "react";
import { data, Link, useNavigation } from "react-router";
import { toast } from "sonner";
import type { Route } from "./+types/profile";
import { getDb } from "~/db/client.server";
import { ClinicInfoCard, ProfileForm } from "~/features/profile/components/profile-form";
import { profileSchema, type ProfileActionData } from "~/features/profile/profile-schema";
import { getProfile, updateProfile } from "~/features/profile/profile-service.server";
import { useAppData } from "~/lib/app-data";
import { actionFailure, actionSuccess } from "~/lib/base/action-result";
import { validationResult } from "~/lib/base/errors.server";
import { requireUser } from "~/lib/guards.server";
import { logger } from "~/lib/base/logger.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [{ title: "Mi Perfil | Río Clínica" }];

/** The session user's own row (never an id from the URL), as a DTO. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return { profile: await getProfile(await getDb(), user.id) };
}

/**
 * Validates, then updates only the session user's row (never an id from the form). Fields other than the
 * profile's (email, role, id...) are dropped by the schema.
 */
export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const parsed = profileSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const { updatedAt } = await updateProfile(await getDb(), user.id, parsed.data);
    return data<ProfileActionData>(actionSuccess({ updatedAt }));
  } catch (error) {
    logger.error({ err: error, userId: user.id }, "profile update failed");
    return data<ProfileActionData>(actionFailure("INTERNAL", "No se pudo actualizar el perfil"), {
      status: 500,
    });
  }
}

function saveRefused() {
  toast.error("Error", { description: "No se pudo actualizar el perfil" });
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { clinic } = useAppData();
  const busy = useNavigation().state === "submitting";
  const { profile } = loaderData;

  // The outcome of a save is told in a toast (the clinic's texts), also when the browser's check refuses it.
  useEffect(() => {
    if (!actionData) return;
    if (actionData.ok) {
      toast.success("Perfil actualizado", { description: "Tu información ha sido guardada correctamente" });
    } else {
      saveRefused();
    }
  }, [actionData]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Mi Perfil</h1>
      <p className="mt-2 text-slate-600">Administra tu información personal y de contacto</p>
      <div className="mt-6 flex items-start gap-3 rounded-xl bg-brand-50 p-4 text-brand-900 ring-1 ring-brand-100">
        <Info aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p className="text-sm">
          Mantén tu información actualizada para que podamos contactarte y brindarte una mejor atención.
        </p>
      </div>
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-3">
        {/* A save brings a new updated_at: the form starts again from the stored (normalised) values. */}
        <ProfileForm
          key={profile.updatedAt}
          profile={profile}
          result={actionData}
          busy={busy}
          onRefused={saveRefused}
        />
        <ClinicInfoCard clinic={clinic} />
      </div>
    </div>
  );
}

/** A failed profile load: the error text the clinic's specification gives, and a way to retry. */
export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Mi Perfil</h1>
      <div role="alert" className="mt-6 rounded-xl bg-red-50 p-5 text-red-900 ring-1 ring-red-200">
        <p className="font-semibold">Error</p>
        <p className="mt-1">No se pudo cargar la información del perfil</p>
        <Link
          to="/paciente/perfil"
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
