import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { hotStatement } from "~/db/pglite-statements.server";
import { users } from "~/db/schema";
import type { ProfileInput } from "./profile-schema";

/** The profile's columns of one user (a hot statement, ADR 053: the profile and the dashboard read it per visit). */
const profileRows = hotStatement("profile_row", (db) =>
  db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      address: users.address,
      emergencyContact: users.emergencyContact,
      emergencyPhone: users.emergencyPhone,
      whatsappOptInAt: users.whatsappOptInAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder("userId")))
    .limit(1),
);

/** The caller's own row (by the session's id), only the columns the profile shows. */
export async function profileRow(db: Pick<Database, "select">, userId: string) {
  const [row] = await profileRows(db, { userId });
  return row;
}

/**
 * Sets exactly the profile's columns (nothing else a client sends) and updated_at, on the row whose id is the
 * session user's. The WhatsApp consent is the ledger's (`setConsent`, which keeps `whatsapp_opt_in_at` in step).
 * Returns undefined when there is no such row.
 */
export async function updateProfileRow(
  db: Pick<Database, "update">,
  userId: string,
  input: ProfileInput,
  updatedAt: Date,
) {
  const [row] = await db
    .update(users)
    .set({
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone,
      address: input.address,
      emergencyContact: input.emergencyContact,
      emergencyPhone: input.emergencyPhone,
      updatedAt,
    })
    .where(eq(users.id, userId))
    .returning({ updatedAt: users.updatedAt, whatsappOptInAt: users.whatsappOptInAt });
  return row;
}
