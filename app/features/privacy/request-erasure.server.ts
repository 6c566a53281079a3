import type { Database } from "~/db/client.server";
import { clinicDate } from "~/domain/clinic-time";
import type { RetainedData } from "./request-messages";
import type { PrivacyRequestRow } from "./request-repository.server";
import { eraseSubjectData, resolveSubject } from "./subject-data.server";

/**
 * Executes an approved erasure (art. 7): everything the law does not require keeping is deleted or anonymised by
 * `eraseSubjectData`; its report of what was kept, why and until when becomes the closing message.
 */
export async function executeErasure(tx: Database, row: PrivacyRequestRow, now: Date) {
  const subject = await resolveSubject(tx, {
    userId: row.userId ?? undefined,
    email: row.email ?? undefined,
    phone: row.phone ?? undefined,
  });
  const report = await eraseSubjectData(tx, subject, { now });
  const retained: RetainedData[] = report.retained.map((item) => ({
    label: item.label,
    rows: item.rows,
    reason: item.reason,
    until: untilDate(item.until),
  }));
  return {
    record: { erased: report.erased, anonymised: report.anonymised, retained },
    summary: "erased",
    retained,
  };
}

function untilDate(until: unknown): string | null {
  if (until instanceof Date) return clinicDate(until);
  if (typeof until === "string" && /^\d{4}-\d{2}-\d{2}/.test(until)) return until.slice(0, 10);
  return null;
}
