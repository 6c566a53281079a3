import { Building2, HeartPulse, Info, Loader2, Mail, MapPin, Phone, Save, UserRound } from "lucide-react";
import { Form } from "react-router";
import type { ClinicFacts } from "~/config/clinic";
import { formatChileanPhone } from "~/domain/format";
import { Button } from "~/components/ui/button";
import { InputField, PhoneField, TextareaField } from "~/components/form-fields";
import { useValidatedForm } from "~/lib/validated-form";
import {
  PROFILE_ADDRESS_MAX,
  PROFILE_EMERGENCY_CONTACT_MAX,
  PROFILE_NAME_MAX,
  WHATSAPP_OPT_IN_LABEL,
  type ProfileActionData,
  type ProfileDto,
} from "../profile-schema";

interface ProfileFormProps {
  profile: ProfileDto;
  result: ProfileActionData | undefined;
  busy: boolean;
  /** The browser's check refused the save (the server is not asked). */
  onRefused: () => void;
}

const loadProfileSchema = () => import("../profile-schema").then((module) => module.profileSchema);

const card = "rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200";

export function ProfileForm({ profile, result, busy, onRefused }: ProfileFormProps) {
  const form = useValidatedForm(loadProfileSchema, result, { onInvalid: onRefused });
  return (
    <Form method="post" {...form.formProps} className="space-y-6 lg:col-span-2" noValidate preventScrollReset>
      <fieldset disabled={busy} className="space-y-6">
        <section aria-labelledby="personal-title" className={card}>
          <h2 id="personal-title" className="flex items-center gap-2 text-xl font-semibold">
            <UserRound aria-hidden className="size-5 text-brand-700" />
            Información Personal
          </h2>
          <div className="mt-5 grid gap-5 sm:grid-cols-2">
            <InputField
              label="Nombre"
              error={form.error("firstName")}
              name="firstName"
              defaultValue={profile.firstName}
              autoComplete="given-name"
              maxLength={PROFILE_NAME_MAX}
              required
            />
            <InputField
              label="Apellido"
              error={form.error("lastName")}
              name="lastName"
              defaultValue={profile.lastName}
              autoComplete="family-name"
              maxLength={PROFILE_NAME_MAX}
              required
            />
            <InputField
              label="Email"
              hint="El email no se puede modificar"
              type="email"
              value={profile.email}
              readOnly
              aria-readonly
              controlClassName="bg-slate-100 text-slate-700"
            />
            <PhoneField
              label="Teléfono"
              error={form.error("phone")}
              name="phone"
              defaultValue={profile.phone}
            />
            <TextareaField
              label="Dirección"
              error={form.error("address")}
              className="sm:col-span-2"
              name="address"
              rows={3}
              defaultValue={profile.address}
              autoComplete="street-address"
              maxLength={PROFILE_ADDRESS_MAX}
              placeholder="Calle, número, depto., comuna"
            />
            <WhatsAppOptInField
              className="sm:col-span-2"
              defaultChecked={profile.whatsappOptIn}
              error={form.error("whatsappOptIn")}
            />
          </div>
        </section>

        <section aria-labelledby="emergency-title" className={card}>
          <h2 id="emergency-title" className="flex items-center gap-2 text-xl font-semibold">
            <HeartPulse aria-hidden className="size-5 text-accent" />
            Contacto de Emergencia
          </h2>
          <div className="mt-5 grid gap-5 sm:grid-cols-2">
            <InputField
              label="Nombre del contacto"
              error={form.error("emergencyContact")}
              name="emergencyContact"
              defaultValue={profile.emergencyContact}
              autoComplete="off"
              maxLength={PROFILE_EMERGENCY_CONTACT_MAX}
            />
            <PhoneField
              label="Teléfono de emergencia"
              error={form.error("emergencyPhone")}
              name="emergencyPhone"
              defaultValue={profile.emergencyPhone}
              autoComplete="off"
            />
          </div>
          <p className="mt-4 flex items-start gap-2 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
            <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-700" />
            Este contacto será notificado en caso de una emergencia médica durante tu tratamiento.
          </p>
        </section>

        <div className="flex justify-end">
          <Button type="submit">
            {busy ? (
              <>
                <Loader2 aria-hidden className="size-4 animate-spin motion-reduce:animate-none" />
                Guardando...
              </>
            ) : (
              <>
                <Save aria-hidden className="size-4" />
                Guardar Cambios
              </>
            )}
          </Button>
        </div>
      </fieldset>
    </Form>
  );
}

/** The consent to WhatsApp messages: unchecked is sent as nothing, which clears a consent given before. */
function WhatsAppOptInField({
  defaultChecked,
  error,
  className,
}: {
  defaultChecked: boolean;
  error: string | undefined;
  className?: string;
}) {
  return (
    <div className={className}>
      <label className="flex items-start gap-3 text-sm text-slate-700">
        <input
          type="checkbox"
          name="whatsappOptIn"
          defaultChecked={defaultChecked}
          aria-describedby="whatsapp-opt-in-hint"
          aria-invalid={error ? true : undefined}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>
          <span className="font-medium text-ink">{WHATSAPP_OPT_IN_LABEL}</span>
          <span id="whatsapp-opt-in-hint" className="mt-0.5 block text-slate-600">
            Necesitas un teléfono móvil en el campo Teléfono. Puedes desactivarlo cuando quieras.
          </span>
        </span>
      </label>
      {error && <p className="mt-1 text-sm font-medium text-red-700">{error}</p>}
    </div>
  );
}

/** 'Información de la Clínica', from the clinic's facts: main phone, administrative e-mail, address. */
export function ClinicInfoCard({ clinic }: { clinic: ClinicFacts }) {
  return (
    <section aria-labelledby="clinic-title" className={card}>
      <h2 id="clinic-title" className="flex items-center gap-2 text-xl font-semibold">
        <Building2 aria-hidden className="size-5 text-brand-700" />
        Información de la Clínica
      </h2>
      <dl className="mt-5 space-y-4 text-sm">
        <div>
          <dt className="flex items-center gap-2 font-medium text-slate-600">
            <Phone aria-hidden className="size-4 shrink-0 text-slate-500" />
            Teléfono principal
          </dt>
          <dd className="mt-0.5 pl-6">
            <a
              href={`tel:${clinic.phone}`}
              className="font-semibold text-brand-700 underline-offset-2 hover:underline"
            >
              {formatChileanPhone(clinic.phone)}
            </a>
          </dd>
        </div>
        <div>
          <dt className="flex items-center gap-2 font-medium text-slate-600">
            <Mail aria-hidden className="size-4 shrink-0 text-slate-500" />
            Email administrativo
          </dt>
          <dd className="mt-0.5 pl-6">
            <a
              href={`mailto:${clinic.adminEmail}`}
              className="font-semibold break-all text-brand-700 underline-offset-2 hover:underline"
            >
              {clinic.adminEmail}
            </a>
          </dd>
        </div>
        <div>
          <dt className="flex items-center gap-2 font-medium text-slate-600">
            <MapPin aria-hidden className="size-4 shrink-0 text-slate-500" />
            Dirección
          </dt>
          <dd className="mt-0.5 pl-6 text-ink">{clinic.address}</dd>
        </div>
      </dl>
    </section>
  );
}
