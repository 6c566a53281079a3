import { Badge, type BadgeTone } from "~/components/ui/badge";
import type { SystemStatusLine } from "../system-status";

/** What each system state means, as a badge says it. */
const badgeTone: Record<SystemStatusLine["tone"], BadgeTone> = {
  ok: "good",
  demo: "info",
  warn: "info",
  down: "bad",
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
              <Badge tone={badgeTone[system.tone]}>{system.label}</Badge>
            </div>
            <p className="mt-1 text-sm text-slate-600">{system.detail}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
