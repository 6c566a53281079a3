/** How long a signed-in session may live, by role (ADR 007; ASVS 5.0 §7.3). Pure. */

/** Roles whose sessions reach clinical or personal data of others: they end sooner. */
export const STAFF_SESSION_ROLES = ["dentista", "asesor", "admin", "super_admin"] as const;

export const STAFF_IDLE_LIMIT_MS = 30 * 60_000;
export const STAFF_ABSOLUTE_LIMIT_MS = 12 * 60 * 60_000;
/** Activity is written at most this often, so an active session costs one write per few minutes, not per request. */
export const ACTIVITY_TOUCH_INTERVAL_MS = 60_000;

export type SessionVerdict = "valid" | "idle" | "expired";

export function hasStaffSession(roles: readonly string[]): boolean {
  return roles.some((role) => (STAFF_SESSION_ROLES as readonly string[]).includes(role.toLowerCase()));
}

/**
 * A staff session ends after 30 minutes without a request and 12 hours after sign-in, however active; patients'
 * sessions follow Better Auth's sliding 12 hours.
 */
export function staffSessionVerdict(
  session: { createdAt: Date; lastActiveAt: Date },
  roles: readonly string[],
  now: Date,
): SessionVerdict {
  if (!hasStaffSession(roles)) return "valid";
  if (now.getTime() - session.createdAt.getTime() >= STAFF_ABSOLUTE_LIMIT_MS) return "expired";
  if (now.getTime() - session.lastActiveAt.getTime() >= STAFF_IDLE_LIMIT_MS) return "idle";
  return "valid";
}

/** Whether this request should record activity on the session (throttled). */
export function shouldTouchActivity(lastActiveAt: Date, now: Date): boolean {
  return now.getTime() - lastActiveAt.getTime() >= ACTIVITY_TOUCH_INTERVAL_MS;
}

/**
 * Marks a read the page makes by itself, not the person: the inbox's revalidation after a live event
 * (`?auto=1`; React Router's data requests cannot carry a header of ours).
 */
export const AUTOMATIC_REQUEST_PARAM = "auto";

/**
 * Whether a request is automatic, so it must not count as activity (else an open tab would never go idle): an event stream (the
 * browser's EventSource asks for text/event-stream and reconnects by itself) or a read marked with
 * `AUTOMATIC_REQUEST_PARAM`. Only reads: a request that changes something is always the person acting.
 */
export function isAutomaticRequest(request: { method: string; url: string; accept: string | null }): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (request.accept?.includes("text/event-stream")) return true;
  return new URL(request.url).searchParams.get(AUTOMATIC_REQUEST_PARAM) === "1";
}
