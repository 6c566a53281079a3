import { Building2, HeartPulse, Info, Loader2, Mail, MapPin, Phone, Save, UserRound } from "lucide-react";
import { Form } from "react-router";
import { Toaster } from "sonner";
import type { ClinicFacts } from "~/config/clinic";
import { formatChileanPhone } from "~/domain/format";
import { Button } from "~/components/ui/button";
import { Field, Input, Textarea } from "~/components/ui/field";
import {
  PROFILE_ADDRESS_MAX,
  PROFILE_EMERGENCY_CONTACT_MAX,
  PROFILE_NAME_MAX,
  type ProfileDto,
} from "../profile-schema";

export const PHONE_PLACEHOLDER = "+56 9 1234 5678";

/** spec 000 §9: at most one toast at a time, 5 s. */
export function ProfileToaster() {
  return (
    <Toaster
      position="bottom-right"
      visibleToasts={1}
      duration={5000}
      swipeDirections={["right"]}
      richColors
      closeButton
      containerAriaLabel="Notificaciones"
      toastOptions={{ closeButtonAriaLabel: "Cerrar notificación" }}
    />
  );
}

interface ProfileFormProps {
  profile: ProfileDto;
  errors: Partial<Record<string, string>>;
  busy: boolean;
}

const card = "rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200";

export function ProfileForm({ profile, errors, busy }: ProfileFormProps) {
  return (
    <Form method="post" className="space-y-6 lg:col-span-2" noValidate preventScrollReset>
      <fieldset disabled={busy} className="space-y-6">
        <section aria-labelledby="personal-title" className={card}>
          <h2 id="personal-title" className="flex items-center gap-2 text-xl font-semibold">
            <UserRound aria-hidden className="size-5 text-brand-700" />
            Información Personal
          </h2>
          <div className="mt-5 grid gap-5 sm:grid-cols-2">
            <Field label="Nombre" error={errors.firstName}>
              {(props) => (
                <Input
                  {...props}
                  name="firstName"
                  defaultValue={profile.firstName}
                  autoComplete="given-name"
                  maxLength={PROFILE_NAME_MAX}
                  required
                />
              )}
            </Field>
            <Field label="Apellido" error={errors.lastName}>
              {(props) => (
                <Input
                  {...props}
                  name="lastName"
                  defaultValue={profile.lastName}
                  autoComplete="family-name"
                  maxLength={PROFILE_NAME_MAX}
                  required
                />
              )}
            </Field>
            <Field label="Email" hint="El email no se puede modificar">
              {(props) => (
                <Input
                  {...props}
                  type="email"
                  value={profile.email}
                  readOnly
                  aria-readonly
                  className="bg-slate-100 text-slate-700"
                />
              )}
            </Field>
            <Field label="Teléfono" error={errors.phone}>
              {(props) => (
                <Input
                  {...props}
                  type="tel"
                  name="phone"
                  defaultValue={profile.phone}
                  placeholder={PHONE_PLACEHOLDER}
                  autoComplete="tel"
                  inputMode="tel"
                  maxLength={30}
                />
              )}
            </Field>
            <Field label="Dirección" error={errors.address} className="sm:col-span-2">
              {(props) => (
                <Textarea
                  {...props}
                  name="address"
                  rows={3}
                  defaultValue={profile.address}
                  autoComplete="street-address"
                  maxLength={PROFILE_ADDRESS_MAX}
                  placeholder="Calle, número, depto., comuna"
                />
              )}
            </Field>
          </div>
        </section>

        <section aria-labelledby="emergency-title" className={card}>
          <h2 id="emergency-title" className="flex items-center gap-2 text-xl font-semibold">
            <HeartPulse aria-hidden className="size-5 text-accent" />
            Contacto de Emergencia
          </h2>
          <div className="mt-5 grid gap-5 sm:grid-cols-2">
            <Field label="Nombre del contacto" error={errors.emergencyContact}>
              {(props) => (
                <Input
                  {...props}
                  name="emergencyContact"
                  defaultValue={profile.emergencyContact}
                  autoComplete="off"
                  maxLength={PROFILE_EMERGENCY_CONTACT_MAX}
                />
              )}
            </Field>
            <Field label="Teléfono de emergencia" error={errors.emergencyPhone}>
              {(props) => (
                <Input
                  {...props}
                  type="tel"
                  name="emergencyPhone"
                  defaultValue={profile.emergencyPhone}
                  placeholder={PHONE_PLACEHOLDER}
                  autoComplete="off"
                  inputMode="tel"
                  maxLength={30}
                />
              )}
            </Field>
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

/** 'Información de la Clínica' (spec 000 §2): main phone, administrative e-mail, address. */
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
