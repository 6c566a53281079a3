import type { Database } from "~/db/client.server";
import type { SubjectCountDto } from "./request-dto";
import type { PrivacyRequestRow } from "./request-repository.server";
import { countSubjectData, resolveSubject } from "./subject-data.server";

const treatmentLabels: Record<string, string> = {
  erase: "Se elimina",
  anonymise: "Se anonimiza",
  retain: "Se conserva (bloqueado)",
};

/** The data found about a verified request's person, per table, and what an erasure would do with each. */
export async function subjectDataFound(db: Database, row: PrivacyRequestRow): Promise<SubjectCountDto[]> {
  const subject = await resolveSubject(db, {
    userId: row.userId ?? undefined,
    email: row.email ?? undefined,
    phone: row.phone ?? undefined,
  });
  const counts = await countSubjectData(db, subject);
  return counts
    .filter((count) => count.rows > 0)
    .map((count) => ({
      table: count.table,
      label: count.label,
      rows: count.rows,
      treatmentLabel: treatmentLabels[count.treatment] ?? count.treatment,
      reason: count.reason ?? null,
      // A retained table's term is stated by the erasure itself (its report says until when, per row).
      until: null,
    }));
}
