import type { NoShowDay } from "../no-show-dto";
import { NoShowPanel } from "./no-show-panel";

/** The dentist agenda's attendance section, in the page's column (ADR 042). */
export function NoShowAgendaSection({ day }: { day: NoShowDay }) {
  return (
    <div className="mx-auto max-w-4xl px-4 pb-10">
      <NoShowPanel day={day} />
    </div>
  );
}
