import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import type { RoleName } from "~/domain/roles";
import { grantRole, revokeRole } from "~/db/accounts.server";
import { getAuth } from "~/features/auth/auth-instance.server";
import { SESSION_COOKIE_PREFIX } from "~/lib/auth/auth.server";
import { uniqueEmail } from "./clients";

export interface TestUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  /** A `Cookie` header value carrying a fresh session of this user. */
  cookie: string;
}

export interface TestUserOptions {
  roles?: RoleName[];
  verified?: boolean;
  firstName?: string;
  email?: string;
  /** Columns of the user row set after the sign-in (phone, last name, WhatsApp consent, two-factor…). */
  columns?: Partial<typeof users.$inferInsert>;
}

/**
 * Creates a real account through Better Auth (argon2 hash, paciente role from the sign-up hook), gives it the
 * requested roles, and signs it in. For integration tests that call loaders and actions directly.
 */
export async function createTestUser(options: TestUserOptions = {}): Promise<TestUser> {
  const auth = await getAuth();
  const db = await getDb();
  const email = options.email ?? uniqueEmail("test");
  const password = "prueba-clave-2026";
  const firstName = options.firstName ?? "Prueba";
  const signUp = await auth.api.signUpEmail({ body: { name: firstName, lastName: "Test", email, password } });
  const id = signUp.user.id;
  if (options.verified ?? true) await db.update(users).set({ emailVerified: true }).where(eq(users.id, id));
  const roles = options.roles ?? ["paciente"];
  for (const role of roles) await grantRole(db, id, role);
  if (!roles.includes("paciente")) await revokeRole(db, id, "paciente");
  const cookie = await signInCookie(email, password);
  // After the sign-in: with two-factor enabled, Better Auth would ask for the second factor instead of a session.
  if (options.columns && Object.keys(options.columns).length > 0)
    await db.update(users).set(options.columns).where(eq(users.id, id));
  return { id, email, password, firstName, cookie };
}

/** Signs in and returns the session cookie as a `Cookie` header value. */
export async function signInCookie(email: string, password: string): Promise<string> {
  const auth = await getAuth();
  const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return cookieHeaderFrom(response);
}

export function cookieHeaderFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .filter((pair) => pair.startsWith(`${SESSION_COOKIE_PREFIX}.`))
    .join("; ");
}
