import { and, eq, inArray } from "drizzle-orm";
import { activeGrantOf, grantedRole } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import {
  chatGuests,
  chatMessages,
  chatRooms,
  dentalinkSyncs,
  leadHistory,
  leads,
  roles,
  userRoles,
  users,
  whatsAppMessages,
} from "~/db/schema";
import { currentConsentVersion } from "~/domain/consent-texts";
import { env, clinicFacts } from "~/lib/base/env.server";
import { demoStaffMarker, generateDemoStaffData, type DemoStaffData } from "./demo-staff-data";

/**
 * Demo mode's staff data (issue 24, item 12b): written once, in bulk (one multi-row insert per table and chunk, in
 * one transaction), after the demo accounts exist so leads have their asesor. Idempotent: the generator's ids are
 * fixed by its seed, so a seeded database is recognised by its first lead and a restart writes nothing; every
 * insert also skips rows that exist (two instances starting together on PostgreSQL).
 */

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for the widest table here. */
const CHUNK = 400;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < rows.length; index += CHUNK) out.push(rows.slice(index, index + CHUNK));
  return out;
}

const DEMO_ASESOR = "asesor@clinica.example";
const DEMO_ADMIN = "admin@clinica.example";

async function demoStaffIds(db: Database) {
  const rows = await db
    .select({ id: users.id, email: users.email, role: roles.name })
    .from(users)
    .innerJoin(userRoles, activeGrantOf(eq(userRoles.userId, users.id)))
    .innerJoin(roles, grantedRole)
    .where(and(inArray(users.email, [DEMO_ASESOR, DEMO_ADMIN]), inArray(roles.name, ["asesor", "admin"])));
  const asesor = rows.find((row) => row.email === DEMO_ASESOR && row.role === "asesor")?.id;
  const admin = rows.find((row) => row.email === DEMO_ADMIN && row.role === "admin")?.id;
  return {
    asesorIds: asesor ? [asesor] : [],
    staffIds: [asesor, admin].filter((id): id is string => Boolean(id)),
  };
}

export interface DemoStaffSeedResult {
  /** False when the database already had the demo's staff data. */
  inserted: boolean;
  leads: number;
}

export async function seedDemoStaffData(db: Database, now = new Date()): Promise<DemoStaffSeedResult> {
  // A restart finds the first demo lead and stops here, before generating anything.
  const [seeded] = await db
    .select({ id: leads.id })
    .from(leads)
    .where(eq(leads.submissionId, demoStaffMarker()))
    .limit(1);
  if (seeded) return { inserted: false, leads: 0 };
  const current = env();
  const clinic = clinicFacts(current);
  const people = await demoStaffIds(db);
  const data = generateDemoStaffData({
    now,
    ...people,
    clinic: { name: clinic.shortName, hours: clinic.hoursCompact, whatsAppNumber: clinic.mobile },
  });
  const mode = current.DENTALINK_API_KEY ? "live" : "mock";
  await db.transaction((tx) =>
    insertAll(tx, data, { accountId: current.CHAT_ACCOUNT_ID, agentId: current.CHAT_AGENT_ID, mode }),
  );
  return { inserted: true, leads: data.leads.length };
}

async function insertAll(
  tx: Database,
  data: DemoStaffData,
  { accountId, agentId, mode }: { accountId: string; agentId: string; mode: "live" | "mock" },
) {
  for (const rows of chunks(data.leads)) await tx.insert(leads).values(rows).onConflictDoNothing();
  for (const rows of chunks(data.history)) await tx.insert(leadHistory).values(rows).onConflictDoNothing();
  for (const rows of chunks(data.whatsApp))
    await tx.insert(whatsAppMessages).values(rows).onConflictDoNothing();
  for (const rows of chunks(data.syncs)) {
    await tx
      .insert(dentalinkSyncs)
      .values(rows.map((row) => ({ ...row, mode })))
      .onConflictDoNothing();
  }
  if (data.chatGuests.length > 0) {
    await tx
      .insert(chatGuests)
      .values(data.chatGuests.map((guest) => ({ ...guest, accountId, updatedAt: guest.createdAt })))
      .onConflictDoNothing();
    const aiConsentVersion = currentConsentVersion("chat_ia");
    await tx
      .insert(chatRooms)
      .values(
        data.chatRooms.map((room) => ({
          ...room,
          accountId,
          agentId,
          aiConsentVersion,
          updatedAt: room.lastMessageAt,
        })),
      )
      .onConflictDoNothing();
    await tx.insert(chatMessages).values(data.chatMessages).onConflictDoNothing();
  }
}
