import type { Database } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { defaultReminderSequence, type ReminderSequenceSettings } from "~/domain/reminder-sequence";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import {
  readClinicSetting,
  recordSettingsAudit,
  writeClinicSetting,
} from "./reminder-settings-repository.server";
import { REMINDER_SEQUENCE_KEY, reminderSequenceSchema } from "./reminder-settings-schema";

/**
 * The clinic's reminder sequence (ADR 039), stored in `clinic_settings` under `reminder_sequence`: the default (every
 * step on) until an admin changes it; a stored value that does not parse falls back to the default and is logged.
 */
export async function reminderSequenceSettings(
  db: Pick<Database, "select">,
): Promise<ReminderSequenceSettings> {
  const row = await readClinicSetting(db, REMINDER_SEQUENCE_KEY);
  if (!row) return { ...defaultReminderSequence };
  const parsed = reminderSequenceSchema.safeParse(row.value);
  if (parsed.success) return parsed.data;
  logger.warn({ key: REMINDER_SEQUENCE_KEY }, "stored reminder sequence does not parse: using the default");
  return { ...defaultReminderSequence };
}

export interface SettingsActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

/** Saves the sequence and its audit row (before and after) in one transaction; admins only. */
export async function saveReminderSequence(
  db: Database,
  actor: SettingsActor,
  settings: ReminderSequenceSettings,
  now = new Date(),
): Promise<void> {
  if (!actor.roles.some((role) => (ADMIN_ROLES as readonly string[]).includes(role))) {
    throw new AppError("FORBIDDEN", "Solo un administrador puede cambiar los recordatorios.");
  }
  const value = reminderSequenceSchema.parse(settings);
  await db.transaction(async (tx) => {
    const before = await reminderSequenceSettings(tx);
    await writeClinicSetting(tx, { key: REMINDER_SEQUENCE_KEY, value, updatedBy: actor.id, at: now });
    await recordSettingsAudit(tx, {
      actorId: actor.id,
      actorRoles: actor.roles,
      action: "settings.reminder_sequence",
      details: { before, after: value },
      ip: actor.ip,
      at: now,
    });
  });
  logger.info({ settings: value }, "reminder sequence changed");
}
