import { ArrowLeft, CalendarCheck, FileText, Loader2, ShieldCheck, Wallet } from "lucide-react";
import { type ReactNode, useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/auth";
import { passwordMeetsRule } from "~/domain/password-rule";
import { safeRedirectPath } from "~/domain/roles";
import { signInSchema, signUpSchema, stepUpSchema, twoFactorSchema } from "~/features/auth/auth-schemas";
import { signIn, signUp, verifySecondFactor, verifySignInStepUp } from "~/features/auth/auth-service.server";
import { AccessHelpDialog } from "~/features/auth/components/access-help-dialog";
import { GoogleButton } from "~/features/auth/components/google-button";
import { authTexts, type AuthTextKey } from "~/i18n/auth-messages";
import { resolveLocale } from "~/i18n/messages";
import { useAppData } from "~/lib/app-data";
import { googleIsDemo, googleSignInEnabled } from "~/lib/auth/auth.server";
import {
  OAUTH_ENROLMENT_REQUIRED_ERROR,
  OAUTH_SECOND_FACTOR_STEP,
  TWO_FACTOR_COOKIE,
} from "~/lib/auth/oauth-second-factor";
import { authCookieValue, sessionUser } from "~/lib/auth/session.server";
import { landingPathForRoles } from "~/domain/roles";
import {
  actionFailure,
  actionSuccess,
  formLevelMessage,
  validationFailure,
  type ActionErrorCode,
  type ActionResult,
  type FieldErrors,
} from "~/lib/base/action-result";
import { readForm } from "~/lib/request.server";
import { clinicFromMatches, pageMeta } from "~/lib/seo";

type Mode = "signin" | "signup";

/**
 * The one action result (ADR 013), with the form it answers and the code step that is next, if any: the
 * authenticator's code, or the code e-mailed past the account's failure limit (the step-up, ADR 031).
 */
export type AuthActionData = (ActionResult | ActionResult<{ notice: "check-email" }>) & {
  intent: Mode | "two-factor" | "step-up";
  step?: "two-factor" | "email-code";
};

const codeByStatus: Record<number, ActionErrorCode> = {
  400: "VALIDATION",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  409: "CONFLICT",
  429: "RATE_LIMITED",
  502: "UPSTREAM_FAILED",
};

/** A refusal of the auth service in the page's language, with its status. */
function refusal(
  context: Pick<AuthActionData, "intent" | "step">,
  outcome: { error: AuthTextKey; status: number },
  t: Record<AuthTextKey, string>,
) {
  const failure = actionFailure(codeByStatus[outcome.status] ?? "INTERNAL", t[outcome.error]);
  return data<AuthActionData>({ ...failure, ...context }, { status: outcome.status });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Portal de Pacientes | Río Clínica",
    description: "Accede a tus citas, documentos médicos e historial de pagos en el Portal de Pacientes.",
    path: "/auth",
    clinic: clinicFromMatches(matches),
  });

export async function loader(args: Route.LoaderArgs) {
  const url = new URL(args.request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  // Already signed in: go where this person belongs.
  const user = await sessionUser(args);
  if (user) throw redirect(redirectTo ?? landingPathForRoles(user.roles));
  // After Google, an account with two-factor comes back here for its code (oauth-second-factor.server.ts).
  const twoFactorPending =
    url.searchParams.get(OAUTH_SECOND_FACTOR_STEP.param) === OAUTH_SECOND_FACTOR_STEP.value &&
    Boolean(authCookieValue(args.request, TWO_FACTOR_COOKIE));
  return { googleEnabled: googleSignInEnabled(), googleDemo: googleIsDemo(), redirectTo, twoFactorPending };
}

export async function action(args: Route.ActionArgs) {
  const { request } = args;
  const { locale } = resolveLocale(new URL(request.url), request.headers.get("cookie"));
  const t = authTexts[locale];
  const form = await readForm(request);
  const intent = form.intent;

  if (intent === "signin") {
    const parsed = signInSchema(t).safeParse(form);
    if (!parsed.success)
      return data<AuthActionData>({ ...validationFailure(parsed.error), intent }, { status: 400 });
    const outcome = await signIn(request, parsed.data);
    if (!outcome.ok) return refusal({ intent }, outcome, t);
    if ("step" in outcome) {
      const next = outcome.step === "two-factor" ? "two-factor" : "step-up";
      return data<AuthActionData>(
        { ...actionSuccess(), intent: next, step: outcome.step },
        { headers: outcome.headers },
      );
    }
    if ("redirectTo" in outcome) throw redirect(outcome.redirectTo, { headers: outcome.headers });
  }

  if (intent === "signup") {
    const parsed = signUpSchema(t).safeParse(form);
    if (!parsed.success)
      return data<AuthActionData>({ ...validationFailure(parsed.error), intent }, { status: 400 });
    const outcome = await signUp(request, parsed.data);
    if (!outcome.ok) return refusal({ intent }, outcome, t);
    if ("notice" in outcome) {
      return data<AuthActionData>(
        { ...actionSuccess({ notice: "check-email" as const }), intent },
        { headers: outcome.headers },
      );
    }
    if ("redirectTo" in outcome) throw redirect(outcome.redirectTo, { headers: outcome.headers });
  }

  if (intent === "two-factor") {
    const parsed = twoFactorSchema(t).safeParse(form);
    if (!parsed.success) {
      return data<AuthActionData>(
        { ...validationFailure(parsed.error), intent, step: "two-factor" },
        { status: 400 },
      );
    }
    const outcome = await verifySecondFactor(request, {
      ...parsed.data,
      useBackupCode: parsed.data.useBackupCode === "on",
    });
    if (!outcome.ok) return refusal({ intent, step: "two-factor" }, outcome, t);
    if ("redirectTo" in outcome) throw redirect(outcome.redirectTo, { headers: outcome.headers });
  }

  if (intent === "step-up") {
    const parsed = stepUpSchema(t).safeParse(form);
    if (!parsed.success) {
      return data<AuthActionData>(
        { ...validationFailure(parsed.error), intent, step: "email-code" },
        { status: 400 },
      );
    }
    const outcome = await verifySignInStepUp(request, parsed.data);
    if (!outcome.ok) return refusal({ intent, step: "email-code" }, outcome, t);
    if ("redirectTo" in outcome) throw redirect(outcome.redirectTo, { headers: outcome.headers });
  }

  throw data("La solicitud no es válida.", { status: 400 });
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const { locale } = useAppData();
  const t = authTexts[locale];
  const [searchParams] = useSearchParams();
  const mode: Mode = searchParams.get("modo") === "registro" ? "signup" : "signin";
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [googleBusy, setGoogleBusy] = useState(false);
  const [clientError, setClientError] = useState<{ mode: Mode; error: AuthTextKey } | null>(null);
  const busy = submitting || googleBusy;

  const result =
    actionData?.intent === mode || actionData?.intent === "two-factor" || actionData?.intent === "step-up"
      ? actionData
      : undefined;
  const twoFactorStep =
    mode === "signin" && (result?.step === "two-factor" || (!result && loaderData.twoFactorPending));
  const emailCodeStep = mode === "signin" && result?.step === "email-code";
  // Back from the Google flow without a popup (/auth/callback → /auth?error=…).
  const redirectError = searchParams.get("error");
  const urlError: AuthTextKey | undefined = redirectError
    ? redirectError === "access_denied"
      ? "cancelled"
      : redirectError === OAUTH_ENROLMENT_REQUIRED_ERROR
        ? "googleTwoFactorEnrolment"
        : "googleFailed"
    : undefined;
  const error =
    clientError?.mode === mode
      ? t[clientError.error]
      : (formLevelMessage(result) ?? (urlError ? t[urlError] : undefined));
  const fields: FieldErrors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const redirectTo = loaderData.redirectTo;

  const withParams = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    const query = params.toString();
    return query ? `?${query}` : "?";
  };
  const continueUrl = `/auth/continuar${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`;
  const twoFactorUrl = `/auth?${OAUTH_SECOND_FACTOR_STEP.param}=${OAUTH_SECOND_FACTOR_STEP.value}${redirectTo ? `&redirectTo=${encodeURIComponent(redirectTo)}` : ""}`;
  const googleStartUrl = `/auth/google${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`;

  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-3">
        <Link
          to="/"
          className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium hover:bg-white"
        >
          <ArrowLeft aria-hidden className="size-4" /> {t.backHome}
        </Link>
        <div className="flex items-center gap-1">
          <AccessHelpDialog label={t.help} />
          <a
            href={withParams({ lang: locale === "es" ? "en" : "es" })}
            lang={locale === "es" ? "en" : "es"}
            aria-label={t.languageSwitchLabel}
            className="rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50"
          >
            {t.languageSwitch}
          </a>
        </div>
      </div>

      <div className="mx-auto mt-6 grid max-w-5xl items-start gap-8 lg:grid-cols-2">
        <section
          className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
          aria-labelledby="auth-title"
        >
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t.title}</p>
          <h1 id="auth-title" className="mt-2 text-2xl font-bold">
            {twoFactorStep
              ? t.twoFactorTitle
              : emailCodeStep
                ? t.stepUpTitle
                : mode === "signin"
                  ? t.signInTitle
                  : t.signUpTitle}
          </h1>
          <p className="mt-1 text-slate-600">
            {twoFactorStep
              ? t.twoFactorHelp
              : emailCodeStep
                ? t.stepUpHelp
                : mode === "signin"
                  ? t.signInSubtitle
                  : t.signUpSubtitle}
          </p>

          {error && (
            <div
              role="alert"
              className="mt-5 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
            >
              <p className="font-semibold">{mode === "signin" ? t.signInFailedTitle : t.signUpFailedTitle}</p>
              <p>{error}</p>
            </div>
          )}

          {result?.ok && result.data?.notice === "check-email" ? (
            <div role="status" className="mt-5 rounded-lg bg-brand-50 p-4 text-brand-900">
              <p className="font-semibold">{t.checkEmailTitle}</p>
              <p className="mt-1 text-sm">{t.checkEmail}</p>
            </div>
          ) : twoFactorStep ? (
            <TwoFactorForm t={t} busy={busy} fields={fields} redirectTo={redirectTo} />
          ) : emailCodeStep ? (
            <StepUpForm t={t} busy={busy} fields={fields} redirectTo={redirectTo} />
          ) : (
            <>
              {loaderData.googleEnabled && (
                <div className="mt-6">
                  <GoogleButton
                    label={loaderData.googleDemo ? t.continueWithGoogleDemo : t.continueWithGoogle}
                    startUrl={googleStartUrl}
                    continueUrl={continueUrl}
                    twoFactorUrl={twoFactorUrl}
                    disabled={submitting}
                    onBusyChange={setGoogleBusy}
                    onError={(googleError) => setClientError({ mode, error: googleError })}
                  />
                  <div className="my-5 flex items-center gap-3 text-sm text-slate-500" aria-hidden>
                    <span className="h-px flex-1 bg-slate-200" /> {t.or}{" "}
                    <span className="h-px flex-1 bg-slate-200" />
                  </div>
                </div>
              )}
              <Form
                method="post"
                replace
                className={loaderData.googleEnabled ? "space-y-4" : "mt-6 space-y-4"}
                onSubmit={(event) => {
                  setClientError(null);
                  if (mode !== "signup") return;
                  const password = new FormData(event.currentTarget).get("password");
                  if (typeof password === "string" && !passwordMeetsRule(password)) {
                    event.preventDefault();
                    setClientError({ mode, error: "passwordTooShort" });
                  }
                }}
              >
                <input type="hidden" name="intent" value={mode} />
                {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
                <fieldset disabled={busy} className="space-y-4">
                  {mode === "signup" && (
                    <div className="grid gap-4 sm:grid-cols-2">
                      <AuthField
                        label={t.firstName}
                        name="firstName"
                        autoComplete="given-name"
                        error={fields.firstName?.[0]}
                      />
                      <AuthField
                        label={t.lastName}
                        name="lastName"
                        autoComplete="family-name"
                        error={fields.lastName?.[0]}
                      />
                    </div>
                  )}
                  <AuthField
                    label={t.email}
                    name="email"
                    type="email"
                    autoComplete="email"
                    error={fields.email?.[0]}
                  />
                  <AuthField
                    label={t.password}
                    name="password"
                    type="password"
                    autoComplete={mode === "signin" ? "current-password" : "new-password"}
                    error={fields.password?.[0]}
                    hint={mode === "signup" ? t.passwordRule : undefined}
                    maxLength={128}
                  />
                  {mode === "signup" && (
                    <AuthField
                      label={t.phoneOptional}
                      name="phone"
                      type="tel"
                      autoComplete="tel"
                      placeholder="+56 9 1234 5678"
                      required={false}
                      error={fields.phone?.[0]}
                    />
                  )}
                </fieldset>
                {mode === "signin" && (
                  <p className="text-right text-sm">
                    <Link to="/auth/recuperar" className="font-medium text-brand-700 underline">
                      {t.forgotPassword}
                    </Link>
                  </p>
                )}
                <SubmitButton disabled={busy} working={submitting}>
                  {submitting ? (mode === "signin" ? t.signingIn : t.creatingAccount) : t.continue}
                </SubmitButton>
              </Form>
            </>
          )}

          <p className="mt-6 text-center text-sm">
            <Link
              to={withParams({ modo: mode === "signin" ? "registro" : null })}
              className="font-medium text-brand-700 underline"
              onClick={() => setClientError(null)}
            >
              {mode === "signin" ? t.toSignUp : t.toSignIn}
            </Link>
          </p>
          <p className="mt-6 flex items-center justify-center gap-1.5 border-t border-slate-100 pt-4 text-xs text-slate-600">
            {t.securedBy}
            <ShieldCheck aria-hidden className="size-4 text-brand-700" />
            <span className="font-semibold text-ink">Río Clínica Secure</span>
          </p>
        </section>

        <aside className="rounded-2xl bg-ink p-8 text-white">
          <h2 className="text-xl font-bold">{t.offersTitle}</h2>
          <ul className="mt-6 space-y-4">
            <li className="flex items-center gap-3">
              <CalendarCheck aria-hidden className="size-6 text-brand-100" /> {t.offerAppointments}
            </li>
            <li className="flex items-center gap-3">
              <FileText aria-hidden className="size-6 text-brand-100" /> {t.offerDocuments}
            </li>
            <li className="flex items-center gap-3">
              <Wallet aria-hidden className="size-6 text-brand-100" /> {t.offerPayments}
            </li>
          </ul>
        </aside>
      </div>
    </main>
  );
}

interface AuthFieldProps extends React.ComponentProps<"input"> {
  label: string;
  name: string;
  error?: string;
  hint?: string;
}

function AuthField({ label, name, error, hint, required = true, ...input }: AuthFieldProps) {
  const id = `auth-${name}`;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2.5 focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-700/30 disabled:bg-slate-100 aria-invalid:border-red-700"
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function TwoFactorForm({
  t,
  busy,
  fields,
  redirectTo,
}: {
  t: Record<AuthTextKey, string>;
  busy: boolean;
  fields: FieldErrors;
  redirectTo: string | null;
}) {
  const [backup, setBackup] = useState(false);
  return (
    <Form method="post" replace className="mt-6 space-y-4">
      <input type="hidden" name="intent" value="two-factor" />
      {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
      {backup && <input type="hidden" name="useBackupCode" value="on" />}
      <fieldset disabled={busy}>
        <AuthField
          label={backup ? t.backupCode : t.twoFactorCode}
          name="code"
          autoComplete="one-time-code"
          inputMode={backup ? "text" : "numeric"}
          maxLength={20}
          error={fields.code?.[0]}
        />
      </fieldset>
      <button
        type="button"
        className="text-sm font-medium text-brand-700 underline"
        onClick={() => setBackup(!backup)}
      >
        {backup ? t.twoFactorCode : t.useBackupCode}
      </button>
      <SubmitButton disabled={busy} working={busy}>
        {busy ? t.verifying : t.verify}
      </SubmitButton>
    </Form>
  );
}

/** The screen's one primary button: a spinner while its form is being sent. */
function SubmitButton({
  disabled,
  working,
  children,
}: {
  disabled: boolean;
  working: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      disabled={disabled}
      className="flex w-full items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
    >
      {working && <Loader2 aria-hidden className="size-4 animate-spin" />}
      {children}
    </button>
  );
}

/** The step-up past the account's failure limit: the 6-digit code e-mailed after the right password. */
function StepUpForm({
  t,
  busy,
  fields,
  redirectTo,
}: {
  t: Record<AuthTextKey, string>;
  busy: boolean;
  fields: FieldErrors;
  redirectTo: string | null;
}) {
  return (
    <Form method="post" replace className="mt-6 space-y-4">
      <input type="hidden" name="intent" value="step-up" />
      {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
      <fieldset disabled={busy}>
        <AuthField
          label={t.stepUpCode}
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={20}
          error={fields.code?.[0]}
        />
      </fieldset>
      <SubmitButton disabled={busy} working={busy}>
        {busy ? t.verifying : t.verify}
      </SubmitButton>
    </Form>
  );
}
