import { IntegrationError, isRetryableError } from "./http.server";

/**
 * A circuit breaker for an integration client (ADR 017: after 5 consecutive failures, fail fast for 30 s, then
 * let one trial call through). Only failures of the service count (by default what `requestJson` would retry:
 * 429, 5xx, timeouts, network errors); any answer that shows the service working — a success, or a 4xx about
 * the request itself — closes the circuit and clears the count. No timers: the state is derived from the
 * injected clock on each call, so tests drive it without waiting.
 */

export type CircuitState = "closed" | "open" | "half-open";

export interface CircuitSnapshot {
  state: CircuitState;
  /** Consecutive failures counted so far (reset by any answer that is not a failure). */
  failures: number;
  /** When the circuit last opened; null while closed. */
  openedAt: Date | null;
}

export interface CircuitBreakerOptions {
  /** Names the system in the `CIRCUIT_OPEN` error. */
  system: string;
  /** Consecutive failures that open the circuit (default 5). */
  failureThreshold?: number;
  /** How long an open circuit fails fast before a trial call (default 30 s). */
  coolDownMs?: number;
  now?: () => number;
  /** Whether an error is a failure of the service (default: a retryable `IntegrationError`). */
  isFailure?: (error: unknown) => boolean;
}

export interface CircuitBreaker {
  /** Runs the call unless the circuit is open (then rejects at once with code `CIRCUIT_OPEN`). */
  run<T>(call: () => Promise<T>): Promise<T>;
  snapshot(): CircuitSnapshot;
  reset(): void;
}

export const DEFAULT_FAILURE_THRESHOLD = 5;
export const DEFAULT_COOL_DOWN_MS = 30_000;

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const {
    system,
    failureThreshold = DEFAULT_FAILURE_THRESHOLD,
    coolDownMs = DEFAULT_COOL_DOWN_MS,
    now = Date.now,
    isFailure = isRetryableError,
  } = options;
  let failures = 0;
  let openedAt: number | null = null;
  let trialInFlight = false;

  function state(at: number): CircuitState {
    if (openedAt === null) return "closed";
    return at - openedAt >= coolDownMs ? "half-open" : "open";
  }

  function openError(at: number): IntegrationError {
    const retryAfterMs = openedAt === null ? 0 : Math.max(0, openedAt + coolDownMs - at);
    return new IntegrationError({
      system,
      status: null,
      body: null,
      code: "CIRCUIT_OPEN",
      message: `${system}: circuit open after ${failures} consecutive failures; not calling for ${retryAfterMs} ms`,
      attempts: 0,
      retryAfterMs,
    });
  }

  return {
    async run(call) {
      const at = now();
      const current = state(at);
      if (current === "open" || (current === "half-open" && trialInFlight)) throw openError(at);
      const trial = current === "half-open";
      if (trial) trialInFlight = true;
      try {
        const result = await call();
        failures = 0;
        openedAt = null;
        return result;
      } catch (error) {
        if (isFailure(error)) {
          failures += 1;
          if (trial || failures >= failureThreshold) openedAt = now();
        } else {
          failures = 0;
          openedAt = null;
        }
        throw error;
      } finally {
        if (trial) trialInFlight = false;
      }
    },

    snapshot() {
      return {
        state: state(now()),
        failures,
        openedAt: openedAt === null ? null : new Date(openedAt),
      };
    },

    reset() {
      failures = 0;
      openedAt = null;
      trialInFlight = false;
    },
  };
}
