/*
 * Rules of the operations view (issue 25, Observability): how a response status, an incoming request id and a
 * rate-limit key become metric labels and log fields. Pure: the metrics and logging code calls these.
 */

export type StatusClass = "1xx" | "2xx" | "3xx" | "4xx" | "5xx";

/** The status class a request histogram is labelled with; anything outside 100–599 counts as a server error. */
export function statusClass(status: number): StatusClass {
  if (!Number.isInteger(status) || status < 100 || status > 599) return "5xx";
  return `${Math.floor(status / 100)}xx` as StatusClass;
}

/** An incoming X-Request-Id is kept only when it is this safe: no spaces, quotes, newlines or personal data room. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function isSafeRequestId(value: string | null | undefined): value is string {
  return typeof value === "string" && SAFE_REQUEST_ID.test(value);
}

/** The request id to use: the proxy's, when it is safe, else the one generated here. */
export function chooseRequestId(
  incoming: string | string[] | null | undefined,
  generate: () => string,
): string {
  const candidate = Array.isArray(incoming) ? incoming[0] : incoming;
  return isSafeRequestId(candidate) ? candidate : generate();
}

/** A rule name segment: lower-case words, no digits, so that no id, address, IP or RUT becomes a label. */
const RULE_SEGMENT = /^[a-z][a-z-]{0,23}$/;

/**
 * The rule a rate-limit key belongs to, as a bounded metric label: its leading word segments, without the last one
 * (always the subject: an IP, an account, a guest), at most three. `public-write:lead:ip:203.0.113.9` →
 * `public-write:lead:ip`, `reset:account:ana@example.com` → `reset:account`, `room:<uuid>` → `room`.
 */
export function rateRuleLabel(key: string): string {
  const segments = key.split(":");
  const rule: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (rule.length === 3 || !RULE_SEGMENT.test(segment)) break;
    rule.push(segment);
  }
  return rule.length > 0 ? rule.join(":") : "other";
}

/** How late a job is: time since its last run beyond its period (0 while on schedule; null if it never ran). */
export function jobLagSeconds(lastRunAt: number | null, everyMs: number, now: number): number | null {
  if (lastRunAt === null) return null;
  return Math.max(0, (now - lastRunAt - everyMs) / 1000);
}
