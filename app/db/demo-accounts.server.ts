import { eq } from "drizzle-orm";
import type { RoleName } from "~/domain/roles";
import { grantRole, revokeRole } from "~/features/accounts/role-repository.server";
import type { Auth } from "~/lib/auth/auth.server";
import type { Database } from "./client.server";
import { users } from "./schema";

export const DEMO_PASSWORD = "clinica-demo-2026";

export const demoAccounts: ReadonlyArray<{
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  role: RoleName;
}> = [
  {
    email: "paciente@clinica.example",
    firstName: "Catalina",
    lastName: "Soto",
    phone: "+56911112222",
    role: "paciente",
  },
  {
    email: "dentista@clinica.example",
    firstName: "Andrés",
    lastName: "Morales",
    phone: "+56922223333",
    role: "dentista",
  },
  {
    email: "asesor@clinica.example",
    firstName: "Javiera",
    lastName: "Pizarro",
    phone: "+56933334444",
    role: "asesor",
  },
  {
    email: "admin@clinica.example",
    firstName: "Rodrigo",
    lastName: "Fuentes",
    phone: "+56944445555",
    role: "admin",
  },
];

/** Creates the demo accounts once (verified e-mail, the shared demo password, one role each). Idempotent. */
export async function seedDemoAccounts(db: Database, auth: Auth): Promise<void> {
  const context = await auth.$context;
  for (const account of demoAccounts) {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, account.email));
    if (existing) continue;
    const user = await context.internalAdapter.createUser(
      {
        email: account.email,
        name: account.firstName,
        lastName: account.lastName,
        phone: account.phone,
        emailVerified: true,
      },
      { method: "admin" },
    );
    await context.internalAdapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: await context.password.hash(DEMO_PASSWORD),
    });
    await grantRole(db, user.id, account.role);
    if (account.role !== "paciente") await revokeRole(db, user.id, "paciente");
  }
}
