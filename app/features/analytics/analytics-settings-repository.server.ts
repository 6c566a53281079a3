import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { analyticsSettings, auditLog } from "~/db/schema";

export interface SettingsActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

const audit = (actor: SettingsActor, action: string, details: Record<string, unknown>, at: Date) => ({
  actorId: actor.id,
  actorRoles: actor.roles.join(","),
  action,
  targetUserId: actor.id,
  details,
  ip: actor.ip,
  createdAt: at,
});

export async function findAnalyticsSettings(db: Database, userId: string): Promise<unknown> {
  const [row] = await db
    .select({ settings: analyticsSettings.settings })
    .from(analyticsSettings)
    .where(eq(analyticsSettings.userId, userId))
    .limit(1);
  return row?.settings ?? null;
}

/** Saves the actor's own settings and records it, in one transaction. */
export async function upsertAnalyticsSettings(
  db: Database,
  actor: SettingsActor,
  settings: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(analyticsSettings)
      .values({ userId: actor.id, settings, updatedAt: at })
      .onConflictDoUpdate({ target: analyticsSettings.userId, set: { settings, updatedAt: at } });
    await tx.insert(auditLog).values(audit(actor, "analytics.settings_saved", settings, at));
  });
}

export async function deleteAnalyticsSettings(db: Database, actor: SettingsActor, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(analyticsSettings).where(eq(analyticsSettings.userId, actor.id));
    await tx.insert(auditLog).values(audit(actor, "analytics.settings_reset", {}, at));
  });
}
