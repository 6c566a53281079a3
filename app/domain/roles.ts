/** Roles and where each lands after signing in: its own home page. Pure. */

export const roleNames = ["paciente", "dentista", "asesor", "admin", "super_admin"] as const;
export type RoleName = (typeof roleNames)[number];

export const STAFF_ROLES: readonly RoleName[] = ["asesor", "admin", "super_admin"];
export const ADMIN_ROLES: readonly RoleName[] = ["admin", "super_admin"];
/**
 * The roles that open any patient's clinical record (Ley 20.584 art. 13: those involved in care, and the clinic's
 * administration); asesores may not. The one list for the record routes' guards, the record service and two-factor.
 * In order of precedence: the access register records the first one an account holds.
 */
export const CLINICAL_READER_ROLES: readonly RoleName[] = ["admin", "super_admin", "dentista"];

/** Whether any of these active role names (any case) is an admin's. */
export function hasAdminRole(activeRoles: readonly string[]): boolean {
  return activeRoles.some((role) => (ADMIN_ROLES as readonly string[]).includes(role.toLowerCase()));
}

export function isRoleName(value: string): value is RoleName {
  return (roleNames as readonly string[]).includes(value);
}

// The most privileged active role decides the landing page.
const landingByPriority: ReadonlyArray<[RoleName, string]> = [
  ["super_admin", "/admin"],
  ["admin", "/admin"],
  ["asesor", "/funnel"],
  ["dentista", "/dentista"],
  ["paciente", "/paciente"],
];

/** Active role names (any case) → landing path; anything unknown, or none, lands on /paciente. */
export function landingPathForRoles(activeRoles: readonly string[]): string {
  const normalized = new Set(activeRoles.map((role) => role.toLowerCase()));
  return landingByPriority.find(([role]) => normalized.has(role))?.[1] ?? "/paciente";
}

/**
 * A `redirectTo` value we may follow: a same-origin absolute path, returned normalised. Protocol-relative
 * (`//evil`), backslash (`/\evil`), absolute URLs, control characters and our own auth pages are refused (null),
 * also when they only appear after normalisation (`/..//evil`, `/%2e%2e//evil` parse to `//evil`).
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value || value.length > 2048) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // oxlint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  const parsed = new URL(value, "http://origin.invalid");
  if (parsed.origin !== "http://origin.invalid") return null;
  const path = parsed.pathname;
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return null;
  if (path === "/auth" || path.startsWith("/auth/")) return null;
  return `${path}${parsed.search}${parsed.hash}`;
}

const TWO_FACTOR_ROLES: ReadonlySet<string> = new Set([...STAFF_ROLES, ...CLINICAL_READER_ROLES]);

/**
 * Staff and every clinical reader must have two-factor authentication (DESIGN §6, unless AUTH_STAFF_2FA=optional):
 * a password alone must not open patients' data.
 */
export function requiresTwoFactor(activeRoles: readonly string[]): boolean {
  return activeRoles.some((role) => TWO_FACTOR_ROLES.has(role.toLowerCase()));
}
