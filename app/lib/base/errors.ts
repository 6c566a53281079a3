/** Service errors with a code; routes map them to responses with Spanish messages (one mapper, ADR 013). */
export type AppErrorCode =
  "NOT_FOUND" | "UNAUTHORIZED" | "FORBIDDEN" | "CONFLICT" | "VALIDATION" | "UPSTREAM_FAILED" | "RATE_LIMITED";

const statusByCode: Record<AppErrorCode, number> = {
  NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CONFLICT: 409,
  VALIDATION: 400,
  UPSTREAM_FAILED: 502,
  RATE_LIMITED: 429,
};

export class AppError extends Error {
  constructor(
    public readonly code: AppErrorCode,
    message: string,
    /** Seconds until a RATE_LIMITED caller may try again, when known (sent as Retry-After). */
    public readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return statusByCode[this.code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** PostgreSQL error code of a database error, looking through driver and ORM wrappers. */
export function postgresErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Name of the violated constraint of a database error, looking through wrappers. */
export function postgresConstraint(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth += 1) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === "string") return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const EXCLUSION_VIOLATION = "23P01";
export const DEADLOCK_DETECTED = "40P01";
export const UNIQUE_VIOLATION = "23505";
