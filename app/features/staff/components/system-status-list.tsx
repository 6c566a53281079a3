import { cn } from "~/lib/cn";
import type { SystemStatusLine } from "../system-status";

const toneClass: Record<SystemStatusLine["tone"], string> = {
  ok: "bg-emerald-100 text-emerald-900",
  demo: "bg-amber-100 text-amber-900",
  warn: "bg-amber-100 text-amber-900",
  down: "bg-red-100 text-red-900",
};

/** The Overview's 'Estado del sistema': one line per system with its state. */
export function SystemStatusList({ systems }: { systems: SystemStatusLine[] }) {
  return (
    <section aria-labelledby="estado-sistemas">
      <h2 id="estado-sistemas" className="text-xl font-semibold">
        Estado del sistema
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {systems.map((system) => (
          <li
            key={system.key}
            className="rounded-xl border border-slate-200 bg-white p-4"
            data-testid={`system-${system.key}`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-semibold">{system.name}</p>
              <span
                className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", toneClass[system.tone])}
              >
                {system.label}
              </span>
            </div>
            <p className="mt-1 text-sm text-slate-600">{system.detail}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
