import type { Database } from "~/db/client.server";
import { formatChileanPhone } from "~/domain/format";
import { accountSubject, setConsent } from "~/features/consent/consent-service.server";
import { AppError } from "~/lib/base/errors";
import { profileCompleteness, type ProfileCompleteness } from "~/domain/profile-completeness";
import { profileRow, updateProfileRow } from "./profile-repository.server";
import type { ProfileDto, ProfileInput } from "./profile-schema";

const NOT_FOUND = "No encontramos tu perfil.";

/** The session user's profile as the page shows it. */
export async function getProfile(db: Database, userId: string): Promise<ProfileDto> {
  const row = await profileRow(db, userId);
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return {
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone ? formatChileanPhone(row.phone) : "",
    address: row.address ?? "",
    emergencyContact: row.emergencyContact ?? "",
    emergencyPhone: row.emergencyPhone ? formatChileanPhone(row.emergencyPhone) : "",
    whatsappOptIn: row.whatsappOptInAt !== null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** How complete the user's profile is; a missing row counts as empty. */
export async function profileCompletenessOf(db: Database, userId: string): Promise<ProfileCompleteness> {
  return profileCompleteness((await profileRow(db, userId)) ?? {});
}

/** Saves the session user's own profile (validated input only) and stamps updated_at. */
export async function updateProfile(
  db: Database,
  userId: string,
  input: ProfileInput,
  now = new Date(),
): Promise<{ updatedAt: string }> {
  return db.transaction(async (tx) => {
    const row = await updateProfileRow(tx, userId, input, now);
    if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
    // The checkbox gives or withdraws the WhatsApp consent in the ledger (ADR 037), with the profile's new phone.
    await setConsent(tx, {
      subject: await accountSubject(tx, userId),
      purpose: "recordatorios_whatsapp",
      given: input.whatsappOptIn,
      channel: "perfil",
      at: now,
    });
    return { updatedAt: row.updatedAt.toISOString() };
  });
}
