import { processors, type Processor } from "~/content/processors";

/**
 * Who processes personal data for the clinic (Ley 21.719 arts. 15 bis, 27–29; ADR 038), from `content/processors.ts`
 * — the same list the privacy policy shows. For the admin privacy page: `<ProcessorsList />`.
 */
export function ProcessorsList({
  items = processors,
  headingLevel = 2,
}: {
  items?: readonly Processor[];
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const Item = headingLevel === 2 ? "h3" : "h4";
  return (
    <section aria-labelledby="encargados-tratamiento" data-testid="processors-list">
      <Heading id="encargados-tratamiento" className="text-2xl font-bold">
        Encargados del tratamiento
      </Heading>
      <p className="mt-2 max-w-3xl text-sm text-slate-700">
        Proveedores que tratan datos personales por encargo de la clínica: para qué, qué datos y dónde. Los
        que procesan datos fuera de Chile son transferencias internacionales y requieren garantías adecuadas.
      </p>
      <ul className="mt-4 grid gap-4 lg:grid-cols-2">
        {items.map((processor) => (
          <li key={processor.id} className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
            <Item className="font-semibold">{processor.name}</Item>
            <p className="mt-1 text-sm text-slate-700">{processor.purpose}</p>
            <dl className="mt-3 grid gap-1 text-sm sm:grid-cols-[7rem_1fr]">
              <dt className="font-medium text-slate-800">Datos</dt>
              <dd className="text-slate-700">{processor.data}</dd>
              <dt className="font-medium text-slate-800">Dónde</dt>
              <dd className="text-slate-700">
                {processor.location}
                {processor.transferAbroad && (
                  <span className="mt-1 block font-medium text-amber-900">Transferencia internacional</span>
                )}
              </dd>
              <dt className="font-medium text-slate-800">Garantías</dt>
              <dd className="text-slate-700">{processor.safeguards}</dd>
              {processor.condition && (
                <>
                  <dt className="font-medium text-slate-800">Cuándo</dt>
                  <dd className="text-slate-700">{processor.condition}</dd>
                </>
              )}
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
