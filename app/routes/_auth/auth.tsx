import { ArrowLeft, Phone } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/auth";
import { formatChileanPhone, whatsappNumber } from "~/domain/format";
import { useAppData, useT } from "~/lib/app-data";
import { clinicFromMatches, pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Portal de Pacientes | Río Clínica",
    description: "Accede a tus citas, documentos y pagos en el Portal de Pacientes.",
    path: "/auth",
    clinic: clinicFromMatches(matches),
  });

// Minimal page until the accounts issue lands (issue 2 allows it): it says what the portal will offer and how
// to reach the clinic meanwhile, with no form that could pretend to sign anyone in.
export default function AuthPlaceholder() {
  const { clinic } = useAppData();
  const t = useT();
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <Link
          to="/"
          className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
        >
          <ArrowLeft aria-hidden className="size-4" /> Volver al inicio
        </Link>
        <h1 className="mt-6 text-2xl font-bold">{t("auth.placeholderTitle")}</h1>
        <p className="mt-3 text-slate-700">{t("auth.placeholderBody")}</p>
        <ul className="mt-6 list-disc space-y-1 pl-5 text-slate-700">
          <li>Gestiona tus citas</li>
          <li>Revisa tus documentos médicos</li>
          <li>Consulta tu historial de pagos</li>
        </ul>
        <div className="mt-8 flex flex-col gap-3">
          <a
            href={`tel:${clinic.phone}`}
            className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            <Phone aria-hidden className="size-4" /> {formatChileanPhone(clinic.phone)}
          </a>
          <a
            href={`https://wa.me/${whatsappNumber(clinic.mobile)}`}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex justify-center rounded-lg border border-slate-300 px-4 py-2.5 font-semibold hover:bg-slate-50"
          >
            WhatsApp {formatChileanPhone(clinic.mobile)}
          </a>
        </div>
      </div>
    </main>
  );
}
