import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, clinicSettings } from "~/db/schema";

/** The stored value of a clinic setting, undefined when it was never set. */
export async function readClinicSetting(db: Pick<Database, "select">, key: string) {
  const [row] = await db
    .select({ value: clinicSettings.value, updatedAt: clinicSettings.updatedAt })
    .from(clinicSettings)
    .where(eq(clinicSettings.key, key));
  return row;
}

export async function writeClinicSetting(
  db: Pick<Database, "insert">,
  entry: { key: string; value: Record<string, unknown>; updatedBy: string; at: Date },
) {
  const set = { value: entry.value, updatedBy: entry.updatedBy, updatedAt: entry.at };
  await db
    .insert(clinicSettings)
    .values({ key: entry.key, ...set })
    .onConflictDoUpdate({ target: clinicSettings.key, set });
}

export async function recordSettingsAudit(
  db: Pick<Database, "insert">,
  entry: {
    actorId: string;
    actorRoles: readonly string[];
    action: string;
    details: Record<string, unknown>;
    ip: string;
    at: Date;
  },
) {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    actorRoles: entry.actorRoles.join(","),
    action: entry.action,
    targetUserId: null,
    details: entry.details,
    ip: entry.ip,
    createdAt: entry.at,
  });
}
