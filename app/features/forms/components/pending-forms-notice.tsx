import { ArrowRight, ClipboardList } from "lucide-react";
import { Link } from "react-router";
import { FORMS_PATH } from "~/domain/forms";

/** The dashboard's notice of forms still to fill before upcoming appointments; nothing when there are none. */
export function PendingFormsNotice({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <section
      aria-labelledby="formularios-pendientes"
      className="mb-8 flex flex-wrap items-center gap-4 rounded-xl bg-sky-50 p-4 text-sky-950 ring-1 ring-sky-200"
      data-testid="pending-forms"
    >
      <ClipboardList aria-hidden className="size-6 shrink-0" />
      <h2 id="formularios-pendientes" className="flex-1 font-semibold">
        {count === 1 ? "Tienes 1 formulario por completar" : `Tienes ${count} formularios por completar`}{" "}
        antes de tu cita.
      </h2>
      <Link
        to={FORMS_PATH}
        className="inline-flex items-center gap-1 font-semibold text-sky-900 underline underline-offset-2"
      >
        Completar formularios <ArrowRight aria-hidden className="size-4" />
      </Link>
    </section>
  );
}
