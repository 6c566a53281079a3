import { Prepared } from "~/lib/prepared-markup";
import { treatmentCards } from "../landing-content";

export function TreatmentsSection() {
  return (
    <Prepared
      as="section"
      attributes={{ id: "tratamientos", className: "bg-white py-20" }}
      name="treatments"
      content={TreatmentsContent}
      props={{}}
    />
  );
}

/** Prepared markup (ADR 055): renders from its props alone. */
function TreatmentsContent() {
  return (
    <div className="mx-auto max-w-6xl px-4">
      <h2 className="text-3xl font-bold">Tratamientos</h2>
      <p className="mt-3 max-w-2xl text-slate-600">
        Especialistas en odontología y estética facial, con tecnología digital en cada etapa: desde el
        diagnóstico hasta el control posterior.
      </p>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {treatmentCards.map((card) => (
          <li key={card.title} className="rounded-2xl border border-slate-200 p-6 shadow-sm">
            <h3 className="text-lg font-semibold">{card.title}</h3>
            <p className="mt-2 text-slate-600">{card.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
