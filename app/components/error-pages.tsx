import { Link } from "react-router";
import { landingPathForRoles } from "~/domain/roles";
import { useAppData, useT } from "~/lib/app-data";

export function NotFoundPage() {
  const t = useT();
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <title>Página no encontrada | Río Clínica</title>
      <p className="text-6xl font-black text-brand-700">404</p>
      <h1 className="mt-4 text-3xl font-bold">{t("notFound.title")}</h1>
      <p className="mt-3 text-slate-600">{t("notFound.body")}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link
          to="/"
          className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          {t("notFound.home")}
        </Link>
        <Link
          to="/auth"
          className="rounded-lg border border-slate-300 px-5 py-2.5 font-semibold hover:bg-slate-50"
        >
          {t("notFound.portal")}
        </Link>
      </div>
    </section>
  );
}

/**
 * A permission refusal (a patient opening /funnel): not an error of the application, so it says what happened and
 * where the person can go instead — their own area when signed in, the sign-in otherwise (issue 24, item 14).
 */
export function ForbiddenPage() {
  const t = useT();
  const { user } = useAppData();
  const home = user ? landingPathForRoles(user.roles) : "/auth";
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <title>Sin acceso | Río Clínica</title>
      <p className="text-5xl font-black text-accent">403</p>
      <h1 className="mt-4 text-3xl font-bold">{t("forbidden.title")}</h1>
      <p className="mt-3 text-slate-600">{t(user ? "forbidden.bodySignedIn" : "forbidden.bodySignedOut")}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link
          to={home}
          className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          {t(user ? "forbidden.myArea" : "forbidden.signIn")}
        </Link>
        <Link
          to="/"
          className="rounded-lg border border-slate-300 px-5 py-2.5 font-semibold hover:bg-slate-50"
        >
          {t("notFound.home")}
        </Link>
      </div>
    </section>
  );
}

export function ErrorPage({ status, detail }: { status: number; detail?: string }) {
  const t = useT();
  const explanation =
    status === 403 ? t("error.forbidden") : status === 400 ? t("error.badRequest") : t("error.body");
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <title>Error | Río Clínica</title>
      <p className="text-5xl font-black text-accent">{status}</p>
      <h1 className="mt-4 text-3xl font-bold">{t("error.title")}</h1>
      <p className="mt-3 text-slate-600">{explanation}</p>
      {detail && (
        <pre className="mt-6 max-w-full overflow-auto rounded bg-slate-100 p-4 text-left text-xs">
          {detail}
        </pre>
      )}
      <Link
        to="/"
        className="mt-8 rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        {t("error.home")}
      </Link>
    </section>
  );
}
